// The deploy plan, computed without any I/O: which objects to upload (in order), which to delete, which stay.
import { CACHE_IMMUTABLE, looksHashed } from '../core/http/policy.ts';
import { emptyManifest, knownEtag, manifestKey, trustedState } from './manifest.ts';
import type { Manifest, ObjectState, RemoteObject, StoredManifest } from './manifest.ts';
import type { Target } from './targets.ts';

export type UploadReason = 'new' | 'content' | 'headers';

export interface Upload {
  target: Target;
  reason: UploadReason;
}

export interface Unchanged {
  target: Target;
  state: ObjectState;
}

/** An old hashed asset kept so that pages still open in browsers (or cached by a CDN) can load it. */
export interface Retained {
  key: string;
  /** The generation whose deploy first found it unused; it is deleted by the first later deploy that changes the site. */
  retiredIn: number;
}

export interface Plan {
  prefix: string;
  manifestKey: string;
  uploads: Upload[];
  unchanged: Unchanged[];
  /** Keys to delete; empty when the --max-deletes guard tripped. */
  deletes: string[];
  retained: Retained[];
  /** Set when more deletes were due than allowed: nothing is deleted. */
  blockedDeletes?: { keys: string[]; maxDeletes: number };
  /** The generation of the site after this deploy. */
  generation: number;
  /** Uncompressed bytes of the uploads. */
  uploadBytes: number;
  previous: Manifest;
}

export interface RemoteListing {
  /** Every object under the prefix except the manifest, by key. */
  objects: Map<string, RemoteObject>;
  manifest?: StoredManifest;
}

export type Comparison = 'same' | 'unknown' | Exclude<UploadReason, 'new'>;

/** Whether the stored object already is the target. 'unknown' when that needs the object's headers (a HEAD request). */
export function compareTarget(target: Target, remote: RemoteObject, state: ObjectState | undefined): Comparison {
  if (!state) {
    // An identity target of another size is certainly different; anything else needs the stored headers.
    return target.encoding === 'identity' && remote.size !== target.size ? 'content' : 'unknown';
  }
  // Objects without an MD5 in their metadata: a plain (single-part, unencrypted or SSE-S3) ETag is the MD5 of the body.
  const storedEncoding = state.contentEncoding ?? 'identity';
  const md5 =
    state.md5 ?? (storedEncoding === 'identity' && /^[0-9a-f]{32}$/.test(remote.etag) ? remote.etag : undefined);
  if (md5 !== target.md5) return 'content';
  if (storedEncoding !== target.encoding) return 'headers';
  if (state.contentType !== target.contentType || state.cacheControl !== target.cacheControl) return 'headers';
  return 'same';
}

/** Keys whose stored headers must be fetched before planning: the manifest does not vouch for them. */
export function keysToInspect(targets: readonly Target[], listing: RemoteListing): string[] {
  const keys: string[] = [];
  for (const target of targets) {
    const remote = listing.objects.get(target.key);
    if (!remote) continue;
    if (compareTarget(target, remote, trustedState(remote, listing.manifest)) === 'unknown') keys.push(target.key);
  }
  return keys;
}

export interface PlanInput {
  prefix: string;
  targets: readonly Target[];
  listing: RemoteListing;
  /** States fetched for keysToInspect(); null when the object was gone by then. */
  inspected?: ReadonlyMap<string, ObjectState | null>;
  maxDeletes: number;
}

/** An old file is not in this build's list of hashed files: it was a hashed asset if it was stored immutable. */
export function wasStoredHashed(previous: Manifest, prefix: string, key: string): boolean {
  const cacheControl = previous.objects[key]?.cacheControl;
  return cacheControl !== undefined ? cacheControl === CACHE_IMMUTABLE : looksHashed(key.slice(prefix.length));
}

export function planDeploy(input: PlanInput): Plan {
  const { prefix, targets, listing, maxDeletes } = input;
  const previous = listing.manifest?.manifest ?? emptyManifest();
  const uploads: Upload[] = [];
  const unchanged: Unchanged[] = [];

  for (const target of targets) {
    const remote = listing.objects.get(target.key);
    const inspected = input.inspected?.get(target.key);
    if (!remote || inspected === null) {
      uploads.push({ target, reason: 'new' });
      continue;
    }
    const state = inspected ?? trustedState(remote, listing.manifest);
    const comparison = compareTarget(target, remote, state);
    if (comparison === 'same' && state) {
      const etag = knownEtag(remote, listing.manifest);
      const storeEtag = etag === remote.etag ? undefined : remote.etag;
      unchanged.push({ target, state: { ...state, etag, storeEtag, size: remote.size } });
    }
    // 'unknown' only when the caller skipped the inspection: uploading is the safe answer.
    else uploads.push({ target, reason: comparison === 'same' || comparison === 'unknown' ? 'content' : comparison });
  }

  const wanted = new Set(targets.map((target) => target.key));
  const manifest = manifestKey(prefix);
  const stale = [...listing.objects.keys()].filter((key) => !wanted.has(key) && key !== manifest).sort();
  const wasHashed = (key: string) => wasStoredHashed(previous, prefix, key);
  const staleAssets = stale.filter(wasHashed);
  const staleOthers = stale.filter((key) => !wasHashed(key));

  // The site changes when something is uploaded or a file other than an old asset goes away.
  const changes = uploads.length > 0 || staleOthers.length > 0;
  const generation = previous.generation + (changes ? 1 : 0);

  const retained: Retained[] = [];
  const expiredAssets: string[] = [];
  for (const key of staleAssets) {
    const retiredIn = previous.retired[key];
    if (retiredIn === undefined) retained.push({ key, retiredIn: generation });
    else if (retiredIn < generation) expiredAssets.push(key);
    else retained.push({ key, retiredIn });
  }

  let deletes = [...staleOthers, ...expiredAssets].sort();
  let blockedDeletes: Plan['blockedDeletes'];
  if (deletes.length > maxDeletes) {
    blockedDeletes = { keys: deletes, maxDeletes };
    // Expired assets stay recorded as retired, so a later deploy deletes them once allowed.
    for (const key of expiredAssets) retained.push({ key, retiredIn: previous.retired[key]! });
    deletes = [];
  }

  return {
    prefix,
    manifestKey: manifest,
    uploads,
    unchanged,
    deletes,
    retained: retained.sort((a, b) => (a.key < b.key ? -1 : 1)),
    blockedDeletes,
    generation,
    uploadBytes: uploads.reduce((sum, upload) => sum + upload.target.size, 0),
    previous,
  };
}

/** The manifest to store after the plan was carried out, given the state of each uploaded object. */
export function manifestAfter(plan: Plan, uploaded: ReadonlyMap<string, ObjectState>, deployedAt: Date): Manifest {
  const objects: Record<string, ObjectState> = {};
  for (const { target, state } of plan.unchanged) objects[target.key] = state;
  for (const { target } of plan.uploads) {
    const state = uploaded.get(target.key);
    if (state) objects[target.key] = state;
  }
  const retired: Record<string, number> = {};
  for (const { key, retiredIn } of plan.retained) retired[key] = retiredIn;
  return {
    version: 1,
    generation: plan.generation,
    deployedAt: deployedAt.toISOString(),
    objects: Object.fromEntries(Object.entries(objects).sort(([a], [b]) => (a < b ? -1 : 1))),
    retired,
  };
}
