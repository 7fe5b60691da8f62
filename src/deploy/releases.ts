// Releases: each deploy records what the site is (every object with its content hash and headers) under an id, so a
// rollback can restore it without its files on disk; an index lists the kept ones and which one is live.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DeployError } from '../core/errors.ts';
import { type Manifest, type ObjectState, objectStateSchema } from './manifest.ts';
import { deleteMany, readText, writeJson } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { keptKey, releaseKey, releasesIndexKey } from './state-keys.ts';

const gitSchema = z.object({
  commit: z.string(),
  branch: z.string().optional(),
  /** The working folder had changes the commit does not (git status listed some): not the commit's site. */
  dirty: z.boolean().optional(),
});

const summarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  git: gitSchema.optional(),
  /** Who deployed it: user@host, and the CI job when there is one. */
  by: z.string(),
  objects: z.number().int().nonnegative(),
  /** Stored bytes of its objects. */
  bytes: z.number().int().nonnegative(),
});

export type ReleaseSummary = z.infer<typeof summarySchema>;
export type GitInfo = z.infer<typeof gitSchema>;

const indexSchema = z.object({
  version: z.literal(1),
  /** The release the bucket serves; absent when a deploy without releases (an older site-gen) changed it since. */
  live: z.string().optional(),
  /** Oldest first. */
  releases: z.array(summarySchema),
  /**
   * Set by a deploy or rollback before it changes anything, cleared when it records its result: while set, the
   * bucket may hold what no record says (the run died mid-way), so a rollback lists the bucket instead.
   */
  pending: z.object({ command: z.string(), by: z.string(), startedAt: z.string() }).optional(),
});

export type ReleasesIndex = z.infer<typeof indexSchema>;

const recordSchema = summarySchema.extend({
  version: z.literal(1),
  objects: z.record(z.string(), objectStateSchema),
});

export type ReleaseRecord = z.infer<typeof recordSchema>;

/** Ids sort by time: 20261125-143012-3f9a (UTC, then 4 random hex digits for two releases in one second). */
export function newReleaseId(now: Date, random: () => string = () => randomBytes(2).toString('hex')): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${random()}`;
}

function git(args: string[], cwd: string): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit and branch deployed: from the CI's variables when set (a CI checkout is often detached), else from git;
 * and whether the working folder had changes beside them (tracked or new files git does not ignore), so that two
 * deploys of one commit with other edits are told apart.
 */
export function gitInfo(cwd: string, env: NodeJS.ProcessEnv = process.env): GitInfo | undefined {
  const commit =
    env.GITHUB_SHA ?? env.CI_COMMIT_SHA ?? env.CIRCLE_SHA1 ?? env.GIT_COMMIT ?? git(['rev-parse', 'HEAD'], cwd);
  if (!commit) return undefined;
  const head = git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd);
  const branch =
    env.GITHUB_HEAD_REF ||
    env.GITHUB_REF_NAME ||
    env.CI_COMMIT_REF_NAME ||
    env.CIRCLE_BRANCH ||
    env.GIT_BRANCH ||
    (head && head !== 'HEAD' ? head : undefined);
  const status = git(['status', '--porcelain'], cwd);
  return { commit, ...(branch ? { branch } : {}), ...(status ? { dirty: true } : {}) };
}

/** The commit as people read it: its first 12 digits, and `-dirty` (as `git describe --dirty` says) with changes. */
export function commitText(git: GitInfo): string {
  return `${git.commit.slice(0, 12)}${git.dirty ? '-dirty' : ''}`;
}

export function summaryOf(record: ReleaseRecord): ReleaseSummary {
  const { id, createdAt, git, by, objects } = record;
  const states = Object.values(objects);
  return {
    id,
    createdAt,
    ...(git ? { git } : {}),
    by,
    objects: states.length,
    bytes: states.reduce((sum, state) => sum + state.size, 0),
  };
}

export function recordOf(manifest: Manifest, id: string, createdAt: Date, by: string, git?: GitInfo): ReleaseRecord {
  const objects: Record<string, ObjectState> = manifest.objects;
  const states = Object.values(objects);
  return {
    version: 1,
    id,
    createdAt: createdAt.toISOString(),
    ...(git ? { git } : {}),
    by,
    bytes: states.reduce((sum, state) => sum + state.size, 0),
    objects,
  };
}

export function emptyIndex(): ReleasesIndex {
  return { version: 1, releases: [] };
}

/** The kept releases; an empty index when the bucket has none yet. */
export async function readIndex(context: RemoteContext): Promise<ReleasesIndex> {
  const key = releasesIndexKey(context.prefix);
  const stored = await readText(context, key);
  if (!stored) return emptyIndex();
  const parsed = safeJson(indexSchema, stored.text);
  if (!parsed) {
    throw new DeployError(
      `s3://${context.bucket}/${key} is not a list of releases this version of site-gen reads. ` +
        'Check that every deploy to this bucket uses the same site-gen version.',
    );
  }
  return parsed;
}

function safeJson<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

export async function readRecord(context: RemoteContext, id: string): Promise<ReleaseRecord> {
  const key = releaseKey(context.prefix, id);
  const stored = await readText(context, key);
  const record = stored && safeJson(recordSchema, stored.text);
  if (!record) {
    throw new DeployError(
      `The record of release ${id} (s3://${context.bucket}/${key}) is ${stored ? 'not readable' : 'missing'}, so that ` +
        'release cannot be restored. Run `site-gen releases` to see the others.',
    );
  }
  return record;
}

export async function writeRecord(context: RemoteContext, record: ReleaseRecord): Promise<void> {
  await writeJson(context, releaseKey(context.prefix, record.id), record);
}

export async function writeIndex(context: RemoteContext, index: ReleasesIndex): Promise<void> {
  await writeJson(context, releasesIndexKey(context.prefix), index, true);
}

/** Writes the index marked with the run about to change the bucket (`pending`): cleared when its result is recorded. */
export async function markPending(
  context: RemoteContext,
  index: ReleasesIndex,
  command: string,
  by: string,
  now: Date,
): Promise<void> {
  await writeIndex(context, { ...index, pending: { command, by, startedAt: now.toISOString() } });
}

/** The index's releases, newest first: the index lists them in the order they were made (ids of one second may not sort). */
export function newestFirst(index: ReleasesIndex): ReleaseSummary[] {
  return [...index.releases].reverse();
}

/** The releases to keep: the newest `keep`, and the live one whatever its age (a rollback may have made an old one live). */
export function releasesToKeep(
  index: ReleasesIndex,
  keep: number,
): { kept: ReleaseSummary[]; dropped: ReleaseSummary[] } {
  const sorted = newestFirst(index);
  const kept = sorted.filter((release, position) => position < keep || release.id === index.live);
  const dropped = sorted.filter((release) => !kept.includes(release));
  return { kept, dropped };
}

export interface PruneResult {
  releases: string[];
  keptCopies: number;
}

/**
 * Writes `index` less the releases past `keep`, then deletes those and the kept copies no remaining release needs. A kept copy is needed when a
 * release other than the live one refers to its ETag (the live one's objects are in place). The records of the
 * remaining releases are read only when a release was dropped: only then can a copy become unneeded.
 */
export async function saveIndex(
  context: RemoteContext,
  index: ReleasesIndex,
  keep: number,
  keptCopies: ReadonlySet<string>,
): Promise<{ index: ReleasesIndex; pruned: PruneResult }> {
  const { kept, dropped } = releasesToKeep(index, keep);
  if (dropped.length === 0) {
    await writeIndex(context, index);
    return { index, pruned: { releases: [], keptCopies: 0 } };
  }
  const needed = new Set<string>();
  for (const release of kept) {
    if (release.id === index.live) continue;
    const record = await readRecord(context, release.id);
    for (const state of Object.values(record.objects)) needed.add(state.etag);
  }
  const unneeded = [...keptCopies].filter((etag) => !needed.has(etag)).sort();
  const next: ReleasesIndex = { ...index, releases: index.releases.filter((release) => kept.includes(release)) };
  // The index first: a release it no longer lists is never offered, even if deleting its files fails below.
  await writeIndex(context, next);
  await deleteMany(
    context,
    [
      ...dropped.map((release) => releaseKey(context.prefix, release.id)),
      ...unneeded.map((etag) => keptKey(context.prefix, etag)),
    ],
    'old releases',
  );
  return { index: next, pruned: { releases: dropped.map((release) => release.id), keptCopies: unneeded.length } };
}
