// Text for people: byte and time figures, the dry-run plan, and the closing summary of a deploy.
import type { Plan } from './plan.ts';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
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
  const parts = [`${files(plan.uploads.length)} to upload (${formatBytes(plan.uploadBytes)})`, `${plan.deletes.length} to delete`];
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

/** Every action of the plan, one per line, for --dry-run. */
export function formatPlan(plan: Plan, bucket: string, options: { configureWebsite?: boolean } = {}): string {
  const lines = [`Dry run: nothing will be changed in ${destination(bucket, plan.prefix)}.`];
  if (options.configureWebsite) lines.push(`  website  index document index.html, error document ${plan.prefix}404.html`);
  for (const { target, reason } of plan.uploads) {
    const encoding = target.encoding === 'gzip' ? ', gzip' : '';
    lines.push(`  upload   ${target.key}  ${formatBytes(target.size)} (${REASONS[reason]}${encoding})`);
  }
  for (const key of plan.deletes) lines.push(`  delete   ${key}`);
  for (const { key } of plan.retained) lines.push(`  keep     ${key}  (old asset, deleted by the next deploy that changes the site)`);
  const blocked = formatBlockedDeletes(plan);
  if (blocked) lines.push(blocked);
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
