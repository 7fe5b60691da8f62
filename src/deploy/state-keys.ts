// The keys site-gen keeps its own records under, in a folder of the deploy's prefix that is never part of the site.

/** A deploy neither uploads nor deletes here; the build's own notes (.site-gen/ in dist/) are never uploaded either. */
export function stateFolder(prefix: string): string {
  return `${prefix}.site-gen/`;
}

/** The lock a deploy or rollback holds while it changes the bucket (lock.ts). */
export function lockKey(prefix: string): string {
  return `${stateFolder(prefix)}lock.json`;
}

/** The list of kept releases and which one is live: one small object, so `site-gen releases` is one request. */
export function releasesIndexKey(prefix: string): string {
  return `${stateFolder(prefix)}releases.json`;
}

/** One release's record: every object of the site with its content hash and headers. */
export function releaseKey(prefix: string, id: string): string {
  return `${stateFolder(prefix)}releases/${id}.json`;
}

const KEPT = 'kept/';

/** A kept copy of a stored body, named by its ETag: what a rollback copies back from once the live object changed. */
export function keptKey(prefix: string, etag: string): string {
  return `${stateFolder(prefix)}${KEPT}${etag}`;
}

/** The ETag a kept copy's key names, or undefined for another key. */
export function keptEtag(prefix: string, key: string): string | undefined {
  const start = `${stateFolder(prefix)}${KEPT}`;
  return key.startsWith(start) ? key.slice(start.length) : undefined;
}
