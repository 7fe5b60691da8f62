// The rollback plan, computed without any I/O: which objects to copy back (from where), which to delete, which stay.
import { isIndexFile } from '../core/http/paths.ts';
import { CACHE_IMMUTABLE } from '../core/http/policy.ts';
import { knownEtag, trustedState } from './manifest.ts';
import type { Manifest, ObjectState } from './manifest.ts';
import { type Retained, wasStoredHashed } from './plan.ts';
import type { ReleaseRecord } from './releases.ts';
import type { Listing } from './remote.ts';
import { keptKey } from './state-keys.ts';
import { PHASES, type Phase } from './targets.ts';

export interface Restore {
  key: string;
  /** The object as the release recorded it: its body's ETag and its headers. */
  state: ObjectState;
  /** The key its body is copied from: a kept copy, or the object itself when only its headers differ. */
  source: string;
  phase: Phase;
}

export interface RollbackPlan {
  prefix: string;
  release: string;
  /** Copies in upload order: hashed assets, files, pages, the error page, the indexes. */
  restores: Restore[];
  /** Keys the restored release does not have: pages the release being replaced added. */
  deletes: string[];
  /** Hashed assets of the release being replaced: kept for one more deploy, so its open pages still load them. */
  retained: Retained[];
  unchanged: number;
  /** Keys of the release whose body is nowhere in the bucket (a kept copy deleted by hand): nothing is done. */
  missing: string[];
  generation: number;
  previous: Manifest;
}

/** The phase an object is restored in, from its recorded headers, as targets.ts orders a deploy's uploads. */
export function phaseOfState(path: string, state: ObjectState): Phase {
  if (state.cacheControl === CACHE_IMMUTABLE) return 'hashed-assets';
  if (path === '404.html') return 'error-page';
  if (isIndexFile(path)) return 'indexes';
  if (state.contentType?.startsWith('text/html')) return 'pages';
  return 'files';
}

function sameHeaders(a: ObjectState, b: ObjectState): boolean {
  return (
    a.contentType === b.contentType &&
    a.cacheControl === b.cacheControl &&
    (a.contentEncoding ?? '') === (b.contentEncoding ?? '') &&
    a.md5 === b.md5
  );
}

export interface RollbackInput {
  prefix: string;
  listing: Listing;
  record: ReleaseRecord;
}

export function planRollback({ prefix, listing, record }: RollbackInput): RollbackPlan {
  const previous = listing.manifest?.manifest ?? { version: 1, generation: 0, objects: {}, retired: {} };
  const restores: Restore[] = [];
  const missing: string[] = [];
  let unchanged = 0;
  for (const [key, state] of Object.entries(record.objects)) {
    const remote = listing.objects.get(key);
    const sameBody =
      remote !== undefined && knownEtag(remote, listing.manifest) === state.etag && remote.size === state.size;
    const live = remote && trustedState(remote, listing.manifest);
    if (sameBody && live && sameHeaders(live, state)) {
      unchanged += 1;
      continue;
    }
    // Not listed, yet recorded by the live manifest with this body: copied onto itself (a store whose listing skips
    // keys, as s3rver's does past 1,000; on S3 a listed key is never missed, and a missing one fails the copy).
    const unlisted = !remote && previous.objects[key]?.etag === state.etag;
    const source = sameBody || unlisted ? key : listing.kept.has(state.etag) ? keptKey(prefix, state.etag) : undefined;
    if (!source) missing.push(key);
    else restores.push({ key, state, source, phase: phaseOfState(key.slice(prefix.length), state) });
  }

  const generation = previous.generation + 1;
  const deletes: string[] = [];
  const retained: Retained[] = [];
  for (const key of [...listing.objects.keys()].sort()) {
    if (record.objects[key]) continue;
    if (wasStoredHashed(previous, prefix, key)) retained.push({ key, retiredIn: previous.retired[key] ?? generation });
    else deletes.push(key);
  }
  const order = (a: Restore, b: Restore) =>
    PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return {
    prefix,
    release: record.id,
    restores: restores.sort(order),
    deletes,
    retained,
    unchanged,
    missing: missing.sort(),
    generation,
    previous,
  };
}

/** The manifest once the rollback is done: the release's objects as stored now, the old assets kept for a deploy. */
export function manifestAfterRollback(
  plan: RollbackPlan,
  record: ReleaseRecord,
  stored: ReadonlyMap<string, ObjectState>,
  now: Date,
): Manifest {
  const objects: Record<string, ObjectState> = {};
  for (const [key, state] of Object.entries(record.objects)) objects[key] = stored.get(key) ?? state;
  const retired: Record<string, number> = {};
  for (const { key, retiredIn } of plan.retained) retired[key] = retiredIn;
  return {
    version: 1,
    generation: plan.generation,
    deployedAt: now.toISOString(),
    objects: Object.fromEntries(Object.entries(objects).sort(([a], [b]) => (a < b ? -1 : 1))),
    retired,
    release: record.id,
  };
}
