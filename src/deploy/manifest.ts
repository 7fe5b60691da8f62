// The deploy manifest: a small JSON object in the bucket recording what site-gen stored, so the next deploy needs
// no request per object to know the stored headers, and knows which old hashed assets are due for deletion.
import { z } from 'zod';
import { stateFolder } from './state-keys.ts';

/** What is known of one stored object: its ETag and size as listed, and the content and headers it was stored with. */
export interface ObjectState {
  /** The ETag of the body as first stored (a PUT's answer): what kept copies and releases name it by. */
  etag: string;
  /**
   * The ETag the store gives this object when it is not `etag`: a restore copies a kept body back, and a copy's ETag
   * is not the body's (S3 with SSE-KMS gives a new one that is no MD5; s3rver 3.7 keeps the overwritten body's when
   * the headers are replaced).
   */
  storeEtag?: string;
  /** Stored size (after gzip, if gzip-encoded). */
  size: number;
  /** Hex MD5 of the uncompressed content, when known. */
  md5?: string;
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
}

/** One entry of a bucket listing. */
export interface RemoteObject {
  key: string;
  size: number;
  /** Without quotes. */
  etag: string;
  lastModified?: Date;
}

/** One object's state as recorded: by the manifest, and by each release (releases.ts). */
export const objectStateSchema = z.object({
  etag: z.string(),
  storeEtag: z.string().optional(),
  size: z.number().int().nonnegative(),
  md5: z.string().optional(),
  contentType: z.string().optional(),
  cacheControl: z.string().optional(),
  contentEncoding: z.string().optional(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  /** Counts the deploys that changed the site; a deploy that changes nothing keeps the number. */
  generation: z.number().int().nonnegative(),
  deployedAt: z.string().optional(),
  objects: z.record(z.string(), objectStateSchema),
  /** Hashed assets no longer in the site, by key: the generation whose deploy first found them unused. */
  retired: z.record(z.string(), z.number().int().nonnegative()),
  /** The release (releases.ts) the bucket serves: the deploy that recorded it, or the one a rollback restored. */
  release: z.string().optional(),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The manifest as read from the bucket, with the server's time of its last write. */
export interface StoredManifest {
  manifest: Manifest;
  lastModified?: Date;
}

export function manifestKey(prefix: string): string {
  return `${stateFolder(prefix)}deploy-manifest.json`;
}

export function emptyManifest(): Manifest {
  return { version: 1, generation: 0, objects: {}, retired: {} };
}

/** The manifest, or undefined when the text is not one this version understands (the deploy then asks S3 instead). */
export function parseManifest(text: string): Manifest | undefined {
  try {
    const result = manifestSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Whether two manifests record the same site: everything but the time of the deploy and the release that made it. */
export function sameManifest(a: Manifest, b: Manifest): boolean {
  const site = (m: Manifest) => serializeManifest({ ...m, deployedAt: undefined, release: undefined });
  return site(a) === site(b);
}

/**
 * The state the manifest vouches for, if the object is still the one site-gen stored: same ETag and size, and not
 * written after the manifest (which is written last). An object changed by anyone else gets no state.
 */
export function trustedState(remote: RemoteObject, stored: StoredManifest | undefined): ObjectState | undefined {
  const entry = stored?.manifest.objects[remote.key];
  if (!entry || knownEtag(remote, stored) !== entry.etag || entry.size !== remote.size) return undefined;
  if (stored?.lastModified && remote.lastModified && remote.lastModified > stored.lastModified) return undefined;
  return entry;
}

/**
 * The ETag of the body an object holds, as site-gen knows it: the manifest's `etag` when the store gives the object
 * the `storeEtag` the manifest noted for it (a restore's copy), else the store's own.
 */
export function knownEtag(remote: RemoteObject, stored: StoredManifest | undefined): string {
  const entry = stored?.manifest.objects[remote.key];
  return entry?.storeEtag !== undefined && entry.storeEtag === remote.etag && entry.size === remote.size
    ? entry.etag
    : remote.etag;
}
