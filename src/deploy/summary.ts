// Text for people: byte and time figures, the dry-run plan, and the closing summary of a deploy.
import type { InvalidationPlan } from './invalidation.ts';
import type { Plan } from './plan.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDuration(ms: number): string {
  // Rounded before it is split, so that 4 min 59.7 s reads 5 min 0 s, not 4 min 60 s (and 59.97 s reads 1 min 0 s).
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const seconds = (ms / 1000).toFixed(1);
  if (ms < 60_000 && seconds !== '60.0') return `${seconds} s`;
  const whole = Math.round(ms / 1000);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function files(count: number): string {
  return `${count} ${count === 1 ? 'file' : 'files'}`;
}

const REASONS = { new: 'new', content: 'changed', headers: 'headers changed' } as const;

/** The place deployed to, as s3://bucket/prefix. */
export function destination(bucket: string, prefix: string): string {
  return `s3://${bucket}/${prefix}`;
}

/** One line: what the plan will do. */
export function formatPlanTotals(plan: Plan): string {
  const parts = [
    `${files(plan.uploads.length)} to upload (${formatBytes(plan.uploadBytes)})`,
    `${plan.deletes.length} to delete`,
  ];
  parts.push(`${plan.unchanged.length} unchanged`);
  if (plan.retained.length > 0) parts.push(`${plan.retained.length} old assets kept for one more deploy`);
  return parts.join(', ');
}

/** The --max-deletes warning, or undefined. */
export function formatBlockedDeletes(plan: Plan): string | undefined {
  if (!plan.blockedDeletes) return undefined;
  const { keys, maxDeletes } = plan.blockedDeletes;
  return (
    `Not deleting anything: ${files(keys.length)} would be deleted, more than --max-deletes ${maxDeletes} allows. ` +
    `Check --bucket, --prefix and --out; if these deletes are intended, run again with --max-deletes ${keys.length}.`
  );
}

/** The CDN's part of a plan: the invalidation a deploy sends, as words. */
export interface CdnPlan extends InvalidationPlan {
  distribution: string;
}

function describeInvalidation(cdn: CdnPlan): string {
  const wildcard = cdn.wildcard
    ? ` (${cdn.addresses} changed addresses, over --cloudfront-max-paths: one wildcard instead)`
    : '';
  return `${cdn.paths.length} ${cdn.paths.length === 1 ? 'path' : 'paths'} of the CloudFront distribution ${cdn.distribution}${wildcard}`;
}

/** Every action of the plan, one per line, for --dry-run. */
export function formatPlan(
  plan: Plan,
  bucket: string,
  options: { configureWebsite?: boolean; cdn?: CdnPlan } = {},
): string {
  const lines = [`Dry run: nothing will be changed in ${destination(bucket, plan.prefix)}.`];
  if (options.configureWebsite)
    lines.push(`  website  index document index.html, error document ${plan.prefix}404.html`);
  for (const { target, reason } of plan.uploads) {
    const encoding = target.encoding === 'gzip' ? ', gzip' : '';
    lines.push(`  upload   ${target.key}  ${formatBytes(target.size)} (${REASONS[reason]}${encoding})`);
  }
  for (const key of plan.deletes) lines.push(`  delete   ${key}`);
  for (const { key } of plan.retained)
    lines.push(`  keep     ${key}  (old asset, deleted by the next deploy that changes the site)`);
  const blocked = formatBlockedDeletes(plan);
  if (blocked) lines.push(blocked);
  const { cdn } = options;
  if (cdn && cdn.paths.length > 0) {
    lines.push(`Then invalidate ${describeInvalidation(cdn)}:`);
    for (const path of cdn.paths) lines.push(`  invalidate ${path}`);
  } else if (cdn) {
    lines.push(
      `Then nothing to invalidate in the CloudFront distribution ${cdn.distribution}: no page or file a visitor requests changes.`,
    );
  }
  lines.push(`Plan: ${formatPlanTotals(plan)}.`);
  return `${lines.join('\n')}\n`;
}

export interface SummaryFigures {
  bucket: string;
  prefix: string;
  uploaded: number;
  /** Bytes sent, after gzip where used. */
  uploadedBytes: number;
  deleted: number;
  unchanged: number;
  retained: number;
  /** False when the deploy changed nothing and so left the manifest as it was. */
  manifestWritten: boolean;
  durationMs: number;
}

export function formatSummary(figures: SummaryFigures): string {
  const where = destination(figures.bucket, figures.prefix);
  const took = formatDuration(figures.durationMs);
  if (figures.uploaded === 0 && figures.deleted === 0 && !figures.manifestWritten) {
    return `Nothing to deploy to ${where}: 0 uploaded, 0 deleted, ${figures.unchanged} unchanged; nothing was written, in ${took}.\n`;
  }
  const parts = [
    `${figures.uploaded} uploaded (${formatBytes(figures.uploadedBytes)})`,
    `${figures.deleted} deleted`,
    `${figures.unchanged} unchanged`,
  ];
  if (figures.retained > 0) parts.push(`kept ${figures.retained} old assets for one more deploy`);
  return `Deployed to ${where}: ${parts.join(', ')}, in ${took}.\n`;
}

/** The line after the CDN step: what was invalidated and how far CloudFront got. */
export function formatInvalidated(cdn: CdnPlan, result?: { id: string; status: string; durationMs: number }): string {
  if (!result)
    return `Nothing to invalidate in the CloudFront distribution ${cdn.distribution}: no page or file a visitor requests changed.\n`;
  const state =
    result.status === 'Completed'
      ? `completed in ${formatDuration(result.durationMs)}`
      : 'in progress; CloudFront usually completes it within minutes (--wait waits for it)';
  return `Invalidated ${describeInvalidation(cdn)} (invalidation ${result.id}): ${state}.\n`;
}
