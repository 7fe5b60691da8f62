// What the bucket holds, from site-gen's own records instead of a listing: under the lock, the deploy manifest names
// every object the live release stored (and the old assets it keeps), so a rollback needs no ListObjects request.
import { manifestKey, parseManifest, type RemoteObject } from './manifest.ts';
import { releasesToKeep, type ReleaseRecord, type ReleasesIndex } from './releases.ts';
import { inspectObjects, readText, type Listing, type RemoteContext } from './remote.ts';
import { keptKey } from './state-keys.ts';

export type RecordedState = { listing: Listing } | { reason: string };

/**
 * The bucket as the records say it is, when they can be trusted; otherwise why not, and the caller lists the bucket.
 * Trusted when no run is marked unfinished in the index, the manifest names the release the index calls live (an
 * older site-gen writes a manifest without one), and saving the index drops no release (pruning needs the list of
 * every kept copy). What the records cannot know is asked for directly, one HEAD each: the old assets the manifest
 * keeps (their ETags), and the kept copies the restore would copy from (that they exist). A hand edit of the bucket
 * is the one change no record shows: `--verify` lists it.
 */
export async function recordedState(
  context: RemoteContext,
  index: ReleasesIndex,
  record: ReleaseRecord,
  keep: number,
  concurrency: number,
): Promise<RecordedState> {
  if (index.pending) {
    const { command, by, startedAt } = index.pending;
    return {
      reason: `a ${command} by ${by} started at ${startedAt} did not finish, so the bucket may differ from its records`,
    };
  }
  if (!index.live) return { reason: 'no release is recorded as live' };
  if (releasesToKeep({ ...index, live: record.id }, keep).dropped.length > 0) {
    return { reason: 'releases are pruned, which needs the list of every kept copy' };
  }
  const key = manifestKey(context.prefix);
  const stored = await readText(context, key);
  const manifest = stored && parseManifest(stored.text);
  if (!manifest) return { reason: `the deploy manifest is ${stored ? 'not readable' : 'missing'}` };
  if (manifest.release !== index.live) {
    return {
      reason:
        `the deploy manifest names ${manifest.release ? `release ${manifest.release}` : 'no release'}, not the live ` +
        `release ${index.live} (a deploy by an older site-gen, or one that stopped before recording its release)`,
    };
  }

  const objects = new Map<string, RemoteObject>();
  for (const [objectKey, state] of Object.entries(manifest.objects)) {
    objects.set(objectKey, { key: objectKey, etag: state.etag, size: state.size });
  }
  const retired = await inspectObjects(context, Object.keys(manifest.retired), concurrency);
  for (const [objectKey, state] of retired) {
    if (state) objects.set(objectKey, { key: objectKey, etag: state.etag, size: state.size });
  }
  // The bodies the restore needs that are not in place: each must have its kept copy.
  const wanted = new Set<string>();
  for (const [objectKey, state] of Object.entries(record.objects)) {
    if (objects.get(objectKey)?.etag !== state.etag) wanted.add(state.etag);
  }
  const copies = await inspectObjects(
    context,
    [...wanted].map((etag) => keptKey(context.prefix, etag)),
    concurrency,
  );
  const kept = new Set([...wanted].filter((etag) => copies.get(keptKey(context.prefix, etag))));
  return { listing: { objects, kept, manifest: { manifest, lastModified: stored.lastModified } } };
}
