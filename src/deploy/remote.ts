// Reads the bucket: the objects under the prefix, the deploy manifest, and the stored headers of chosen objects.
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { DeployError } from '../core/errors.ts';
import { manifestKey, parseManifest } from './manifest.ts';
import type { ObjectState, RemoteObject, StoredManifest } from './manifest.ts';
import type { RemoteListing } from './plan.ts';
import { forEachLimited } from './pool.ts';
import { keptEtag, stateFolder } from './state-keys.ts';
import { withRetry } from './retry.ts';
import type { RetryPolicy } from './retry.ts';
import { explainS3Error } from './s3-errors.ts';

export interface RemoteContext {
  client: S3Client;
  bucket: string;
  prefix: string;
  endpoint?: string;
  retry: RetryPolicy;
  /** Told before each new try, with what was being done. */
  onRetry?: (what: string, attempt: number, delayMs: number, error: unknown) => void;
}

/** Runs one S3 request with the context's retry policy; `what` names it in retry messages. */
export function send<T>(context: RemoteContext, what: string, run: () => Promise<T>): Promise<T> {
  return withRetry(run, context.retry, {
    onRetry: ({ attempt, delayMs, error }) => context.onRetry?.(what, attempt, delayMs, error),
  });
}

/** S3 quotes ETags; keep them bare so that every source compares alike. */
export function bareEtag(etag: string | undefined): string {
  return (etag ?? '').replace(/"/g, '');
}

function location(context: RemoteContext, key = context.prefix): string {
  return `s3://${context.bucket}/${key}`;
}

export interface Listing extends RemoteListing {
  /** Set when a manifest exists but could not be read; the deploy then inspects objects instead. */
  unreadableManifest?: boolean;
  /** ETags of the kept copies of old bodies (state-keys.ts), which releases are restored from. */
  kept: Set<string>;
}

export async function listRemote(context: RemoteContext): Promise<Listing> {
  const { client, bucket, prefix } = context;
  const objects = new Map<string, RemoteObject>();
  const ownManifest = manifestKey(prefix);
  const ownState = stateFolder(prefix);
  const kept = new Set<string>();
  let manifestEntry: RemoteObject | undefined;
  let token: string | undefined;
  try {
    do {
      const page = await send(context, `listing ${location(context)}`, () =>
        client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined) continue;
        const entry = {
          key: item.Key,
          size: item.Size ?? 0,
          etag: bareEtag(item.ETag),
          lastModified: item.LastModified,
        };
        if (item.Key === ownManifest) manifestEntry = entry;
        else if (item.Key.startsWith(ownState)) {
          // site-gen's own records are not part of the site: never planned, never deleted as stale.
          const etag = keptEtag(prefix, item.Key);
          if (etag) kept.add(etag);
        } else objects.set(item.Key, entry);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } catch (cause) {
    throw new DeployError(`Could not list ${location(context)}: ${explainS3Error(cause, context)}.`, { cause });
  }
  if (!manifestEntry) return { objects, kept };

  let stored: StoredManifest | undefined;
  try {
    const text = await send(context, `reading ${ownManifest}`, async () => {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: ownManifest }));
      return (await answer.Body?.transformToString('utf-8')) ?? '';
    });
    const manifest = parseManifest(text);
    if (manifest) stored = { manifest, lastModified: manifestEntry.lastModified };
  } catch (cause) {
    throw new DeployError(
      `Could not read the deploy manifest ${location(context, ownManifest)}: ${explainS3Error(cause, context)}.`,
      {
        cause,
      },
    );
  }
  return stored ? { objects, kept, manifest: stored } : { objects, kept, unreadableManifest: true };
}

/** Whether the key does not exist; a bucket that does not exist is a failure (explainS3Error says so), not a 404 key. */
export function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The stored headers and content MD5 of each key (HEAD requests); null for a key that no longer exists. */
export async function inspectObjects(
  context: RemoteContext,
  keys: readonly string[],
  concurrency: number,
): Promise<Map<string, ObjectState | null>> {
  const states = new Map<string, ObjectState | null>();
  await forEachLimited(keys, concurrency, async (key) => {
    try {
      const head = await send(context, `reading the headers of ${key}`, () =>
        context.client.send(new HeadObjectCommand({ Bucket: context.bucket, Key: key })),
      );
      const md5 = head.Metadata?.md5;
      states.set(key, {
        etag: bareEtag(head.ETag),
        size: head.ContentLength ?? 0,
        md5: md5 && /^[0-9a-f]{32}$/.test(md5) ? md5 : undefined,
        contentType: head.ContentType,
        cacheControl: head.CacheControl,
        contentEncoding: head.ContentEncoding || undefined,
      });
    } catch (cause) {
      if (isNotFound(cause)) {
        states.set(key, null);
        return;
      }
      throw new DeployError(
        `Could not read the headers of ${location(context, key)}: ${explainS3Error(cause, context)}.`,
        { cause },
      );
    }
  });
  return states;
}

/** A small object of site-gen's own, as text with its ETag and time; undefined when there is none. */
export interface StoredText {
  text: string;
  etag: string;
  lastModified?: Date;
}

export async function readText(context: RemoteContext, key: string): Promise<StoredText | undefined> {
  try {
    return await send(context, `reading ${key}`, async () => {
      const answer = await context.client.send(new GetObjectCommand({ Bucket: context.bucket, Key: key }));
      const text = (await answer.Body?.transformToString('utf-8')) ?? '';
      return { text, etag: bareEtag(answer.ETag), lastModified: answer.LastModified };
    });
  } catch (cause) {
    if (isNotFound(cause)) return undefined;
    throw new DeployError(`Could not read ${location(context, key)}: ${explainS3Error(cause, context)}.`, { cause });
  }
}

/** Writes a JSON record of site-gen's own: never cached, never shown as part of the site. */
export async function writeJson(context: RemoteContext, key: string, value: unknown, pretty = false): Promise<void> {
  try {
    await send(context, `writing ${key}`, () =>
      context.client.send(
        new PutObjectCommand({
          Bucket: context.bucket,
          Key: key,
          Body: Buffer.from(`${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`),
          ContentType: 'application/json; charset=utf-8',
          CacheControl: 'no-store',
        }),
      ),
    );
  } catch (cause) {
    throw new DeployError(`Could not write ${location(context, key)}: ${explainS3Error(cause, context)}.`, { cause });
  }
}

/** S3 deletes at most 1000 keys per DeleteObjects request. */
export const DELETE_BATCH = 1000;

/** Deletes keys in batches; `what` says what they are, for the error message. */
export async function deleteMany(context: RemoteContext, keys: readonly string[], what: string): Promise<void> {
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    let errors;
    try {
      const answer = await send(context, `deleting ${batch.length} ${what}`, () =>
        context.client.send(
          new DeleteObjectsCommand({
            Bucket: context.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        ),
      );
      errors = answer.Errors ?? [];
    } catch (cause) {
      throw new DeployError(
        `Could not delete ${batch.length} ${what} from ${location(context)} (first: ${batch[0]}): ${explainS3Error(cause, context)}.`,
        { cause },
      );
    }
    if (errors.length > 0) {
      const first = errors[0]!;
      throw new DeployError(
        `Could not delete ${errors.length} ${what} from ${location(context)}, first ${first.Key}: ${first.Code ?? 'error'}. ` +
          'The credentials need s3:DeleteObject on the bucket.',
      );
    }
  }
}
