// Carries out a plan: uploads phase by phase (each phase finished before the next starts), then deletes, then the manifest.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { DeleteObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeployError } from '../core/errors.ts';
import { sameManifest, serializeManifest } from './manifest.ts';
import type { Manifest, ObjectState } from './manifest.ts';
import { manifestAfter } from './plan.ts';
import type { Plan, Upload } from './plan.ts';
import { forEachLimited } from './pool.ts';
import type { DeployReporter } from './progress.ts';
import { bareEtag, DELETE_BATCH, send } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { explainS3Error } from './s3-errors.ts';
import { PHASES } from './targets.ts';
import type { Target } from './targets.ts';

/** S3 takes at most 5 GiB in one PUT. */
const MAX_SINGLE_PUT = 5 * 1024 ** 3;

export interface ExecuteContext extends RemoteContext {
  concurrency: number;
  reporter: DeployReporter;
  now?: () => Date;
  /** Called with the manifest about to be written (not when nothing changed); returns the one to write. */
  beforeManifest?: (manifest: Manifest) => Promise<Manifest>;
}

export interface ExecuteResult {
  /** Bytes sent, after gzip where used. */
  uploadedBytes: number;
  /** Whether the deploy manifest was written: not when it would record what it already records. */
  manifestWritten: boolean;
  uploaded: Map<string, ObjectState>;
  deleted: string[];
  /** The manifest written, when one was. */
  manifest?: Manifest;
}

const RESUME =
  'The deploy stopped there: later steps (pages after their assets, deletes last) were not run, so visitors still get ' +
  'a consistent site. Run the same command again to finish; files already uploaded are skipped.';

async function bodyOf(target: Target): Promise<Buffer> {
  const content = await readFile(target.absolutePath);
  if (createHash('md5').update(content).digest('hex') !== target.md5) {
    throw new DeployError(
      `${target.absolutePath} changed while the deploy was running. Wait for the build to finish, then run the deploy again.`,
    );
  }
  return target.encoding === 'gzip' ? gzipSync(content, { level: 9 }) : content;
}

async function uploadOne(upload: Upload, context: ExecuteContext): Promise<{ state: ObjectState; bytes: number }> {
  const { target } = upload;
  if (target.size > MAX_SINGLE_PUT) {
    throw new DeployError(
      `${target.absolutePath} is ${target.size} bytes, over the 5 GiB S3 takes in one upload. Host it elsewhere and link to it.`,
    );
  }
  const body = await bodyOf(target);
  const bodyMd5 = createHash('md5').update(body);
  const answer = await send(context, target.key, () =>
    context.client.send(
      new PutObjectCommand({
        Bucket: context.bucket,
        Key: target.key,
        Body: body,
        ContentType: target.contentType,
        CacheControl: target.cacheControl,
        ContentEncoding: target.encoding === 'gzip' ? 'gzip' : undefined,
        // S3 checks the body against this and refuses a corrupted upload.
        ContentMD5: bodyMd5.copy().digest('base64'),
        // The MD5 of the uncompressed content: compares with the local file whatever the encoding or ETag.
        Metadata: { md5: target.md5 },
      }),
    ),
  );
  const state: ObjectState = {
    etag: bareEtag(answer.ETag) || bodyMd5.digest('hex'),
    size: body.length,
    md5: target.md5,
    contentType: target.contentType,
    cacheControl: target.cacheControl,
    contentEncoding: target.encoding === 'gzip' ? 'gzip' : undefined,
  };
  return { state, bytes: body.length };
}

async function deleteKeys(keys: readonly string[], context: ExecuteContext): Promise<void> {
  for (let start = 0; start < keys.length; start += DELETE_BATCH) {
    const batch = keys.slice(start, start + DELETE_BATCH);
    let answer;
    try {
      answer = await send(context, `deleting ${batch.length} files`, () =>
        context.client.send(
          new DeleteObjectsCommand({
            Bucket: context.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        ),
      );
    } catch (cause) {
      throw new DeployError(
        `Could not delete ${batch.length} old files from s3://${context.bucket}/${context.prefix} (first: ${batch[0]}): ` +
          `${explainS3Error(cause, context)}. Every new file is uploaded; run the same command again to delete the old ones.`,
        { cause },
      );
    }
    const errors = answer.Errors ?? [];
    if (errors.length > 0) {
      const first = errors[0]!;
      throw new DeployError(
        `Could not delete ${errors.length} of ${batch.length} old files, first ${first.Key}: ${first.Code ?? 'error'} ${first.Message ?? ''}`.trim() +
          '. The credentials need s3:DeleteObject on the bucket; then run the same command again.',
      );
    }
    context.reporter.deleted(batch);
  }
}

export async function executePlan(plan: Plan, context: ExecuteContext): Promise<ExecuteResult> {
  const uploaded = new Map<string, ObjectState>();
  let uploadedBytes = 0;

  for (const phase of PHASES) {
    const batch = plan.uploads.filter((upload) => upload.target.phase === phase);
    await forEachLimited(batch, context.concurrency, async (upload) => {
      try {
        const { state, bytes } = await uploadOne(upload, context);
        uploaded.set(upload.target.key, state);
        uploadedBytes += bytes;
        context.reporter.uploaded(upload.target, bytes);
      } catch (cause) {
        if (cause instanceof DeployError) throw cause;
        const { target } = upload;
        throw new DeployError(
          `Could not upload ${target.absolutePath} to s3://${context.bucket}/${target.key}: ${explainS3Error(cause, context)}. ${RESUME}`,
          { cause },
        );
      }
    });
  }

  await deleteKeys(plan.deletes, context);

  let manifest = manifestAfter(plan, uploaded, (context.now ?? (() => new Date()))());
  // A deploy that changes nothing writes nothing, not even the manifest (its deployedAt would be the only change).
  if (uploaded.size === 0 && plan.deletes.length === 0 && sameManifest(manifest, plan.previous)) {
    return { uploadedBytes, uploaded, deleted: [], manifestWritten: false };
  }
  if (context.beforeManifest) manifest = await context.beforeManifest(manifest);
  try {
    await send(context, plan.manifestKey, () =>
      context.client.send(
        new PutObjectCommand({
          Bucket: context.bucket,
          Key: plan.manifestKey,
          Body: Buffer.from(serializeManifest(manifest)),
          ContentType: 'application/json; charset=utf-8',
          CacheControl: 'no-store',
        }),
      ),
    );
  } catch (cause) {
    throw new DeployError(
      `The site is deployed, but the deploy manifest s3://${context.bucket}/${plan.manifestKey} could not be written: ` +
        `${explainS3Error(cause, context)}. Run the same command again so the next deploy knows what is stored.`,
      { cause },
    );
  }
  return { uploadedBytes, uploaded, deleted: [...plan.deletes], manifestWritten: true, manifest };
}
