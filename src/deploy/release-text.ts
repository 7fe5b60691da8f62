// Text for people about releases: the list `site-gen releases` prints, a rollback's dry-run plan and its summary.
import type { ReleaseSummary, ReleasesIndex } from './releases.ts';
import { commitText, newestFirst } from './releases.ts';
import type { RollbackPlan } from './rollback-plan.ts';
import { type CdnPlan, destination, formatBytes, formatDuration } from './summary.ts';

/** 2026-11-25 14:30:12 UTC */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export function describeRelease(release: ReleaseSummary): string {
  const git = release.git ? `, ${commitText(release.git)}${release.git.branch ? ` on ${release.git.branch}` : ''}` : '';
  return `${release.id} (${when(release.createdAt)}${git})`;
}

/** Newest first, the live one marked with *; one line each, then what the marks mean. */
export function formatReleases(index: ReleasesIndex, bucket: string, prefix: string): string {
  const where = destination(bucket, prefix);
  if (index.releases.length === 0) {
    return `No releases recorded in ${where}: each deploy records one (from this version of site-gen on).\n`;
  }
  const lines = [`Releases of ${where}, newest first (* live):`];
  for (const release of newestFirst(index)) {
    const git = release.git ? `${commitText(release.git)}${release.git.branch ? ` ${release.git.branch}` : ''}` : '-';
    lines.push(
      `${release.id === index.live ? '*' : ' '} ${release.id}  ${when(release.createdAt)}  ${git}  ` +
        `${release.objects} files, ${formatBytes(release.bytes)}  by ${release.by}`,
    );
  }
  if (!index.live) lines.push('None is live: the bucket was changed since by a deploy that records no release.');
  lines.push(
    'Roll back to the one before the live one with `site-gen rollback`, to any with `site-gen rollback --to ID`.',
  );
  return `${lines.join('\n')}\n`;
}

function totals(plan: RollbackPlan): string {
  const parts = [
    `${plan.restores.length} to restore`,
    `${plan.deletes.length} to delete`,
    `${plan.unchanged} unchanged`,
  ];
  if (plan.retained.length > 0)
    parts.push(`${plan.retained.length} assets of the replaced release kept for one more deploy`);
  return parts.join(', ');
}

export function formatRollbackPlan(plan: RollbackPlan, heading: string, bucket: string, cdn?: CdnPlan): string {
  const lines = [`Dry run: nothing will be changed in ${destination(bucket, plan.prefix)}.`, heading];
  for (const restore of plan.restores) {
    const from = restore.source === restore.key ? 'headers only' : 'from its kept copy';
    lines.push(`  restore  ${restore.key}  (${from})`);
  }
  for (const key of plan.deletes) lines.push(`  delete   ${key}`);
  for (const { key } of plan.retained)
    lines.push(`  keep     ${key}  (asset of the replaced release, deleted by the next deploy)`);
  if (cdn && cdn.paths.length > 0) {
    lines.push(`Then invalidate ${cdn.paths.length} paths of the CloudFront distribution ${cdn.distribution}:`);
    for (const path of cdn.paths) lines.push(`  invalidate ${path}`);
  }
  lines.push(`Plan: ${totals(plan)}.`);
  return `${lines.join('\n')}\n`;
}

export function formatRollbackSummary(
  plan: RollbackPlan,
  release: ReleaseSummary,
  bucket: string,
  durationMs: number,
): string {
  const parts = [`${plan.restores.length} restored`, `${plan.deletes.length} deleted`, `${plan.unchanged} unchanged`];
  if (plan.retained.length > 0)
    parts.push(`kept ${plan.retained.length} assets of the replaced release for one more deploy`);
  return (
    `Rolled back ${destination(bucket, plan.prefix)} to release ${describeRelease(release)}: ${parts.join(', ')}, ` +
    `in ${formatDuration(durationMs)}.\n`
  );
}
