// Before a deploy or rollback overwrites or deletes an object of the live release, its body is copied aside (a
// server-side copy, no bytes through the deployer) under its ETag, so that release can be restored later.
import { CopyObjectCommand } from '@aws-sdk/client-s3';
import { DeployError } from '../core/errors.ts';
import { knownEtag, type RemoteObject, type StoredManifest } from './manifest.ts';
import { forEachLimited } from './pool.ts';
import { send } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { explainS3Error } from './s3-errors.ts';
import { keptKey } from './state-keys.ts';

export interface KeepCopy {
  /** The live object to copy aside. */
  key: string;
  etag: string;
}

/** CopyObject's source: the bucket and key, URL-encoded but for the slashes. */
export function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The bodies to copy aside before `changing` (keys about to be overwritten or deleted): those of the live release
 * (its objects, and its old assets kept for one more deploy) not already kept, one copy per ETag: the one the
 * manifest records (knownEtag), which the release's record names too. None when the live state is no release (a
 * bucket deployed before releases existed): nothing could refer to it.
 */
export function keepBeforeChange(
  changing: Iterable<string>,
  objects: ReadonlyMap<string, RemoteObject>,
  stored: StoredManifest | undefined,
  kept: ReadonlySet<string>,
): KeepCopy[] {
  const live = stored?.manifest;
  if (!live?.release) return [];
  const copies = new Map<string, KeepCopy>();
  for (const key of changing) {
    const remote = objects.get(key);
    if (!remote) continue;
    const etag = knownEtag(remote, stored);
    if (kept.has(etag) || copies.has(etag)) continue;
    const ofRelease = live.objects[key]?.etag === etag || live.retired[key] !== undefined;
    if (ofRelease) copies.set(etag, { key, etag });
  }
  return [...copies.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Carries out keepBeforeChange(): each copy made before anything of the site changes; adds the ETags to `kept`. */
export async function keepCopies(
  copies: readonly KeepCopy[],
  context: RemoteContext & { concurrency: number },
  kept: Set<string>,
): Promise<void> {
  await forEachLimited(copies, context.concurrency, async ({ key, etag }) => {
    try {
      await send(context, `keeping a copy of ${key}`, () =>
        context.client.send(
          new CopyObjectCommand({
            Bucket: context.bucket,
            Key: keptKey(context.prefix, etag),
            CopySource: copySource(context.bucket, key),
          }),
        ),
      );
    } catch (cause) {
      throw new DeployError(
        `Could not keep a copy of s3://${context.bucket}/${key} before replacing it: ${explainS3Error(cause, context)}. ` +
          'Nothing of the site was changed; the credentials need s3:GetObject and s3:PutObject (a copy is both). ' +
          'Run the same command again.',
        { cause },
      );
    }
    kept.add(etag);
  });
}
