// `site-gen rollback`: makes the bucket serve a kept release again, byte for byte, by server-side copies of only what
// differs (no local files, no rebuild), deleting what the replaced release added, then invalidating the CDN.
import { CopyObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { DeployError, UsageError } from '../core/errors.ts';
import { connect } from './connection.ts';
import type { InvalidationResult } from './cloudfront.ts';
import { invalidateIfNeeded } from './deploy.ts';
import { invalidationForPaths } from './invalidation.ts';
import { keepBeforeChange, keepCopies, copySource } from './keep.ts';
import { acquireLock, describeHolder, type HeldLock, holdingLock, lockNote, type LockPolicy, whoAmI } from './lock.ts';
import { manifestKey, type ObjectState } from './manifest.ts';
import { type BucketOptions, type CloudFrontOptions, DEFAULTS } from './options.ts';
import { forEachLimited } from './pool.ts';
import { createReporter, type Output } from './progress.ts';
import { describeRelease, formatRollbackPlan, formatRollbackSummary } from './release-text.ts';
import {
  markPending,
  newestFirst,
  readIndex,
  readRecord,
  saveIndex,
  type ReleaseSummary,
  type ReleasesIndex,
} from './releases.ts';
import { bareEtag, deleteMany, listRemote, send, writeJson, type RemoteContext } from './remote.ts';
import type { RetryPolicy } from './retry.ts';
import { manifestAfterRollback, planRollback, type Restore, type RollbackPlan } from './rollback-plan.ts';
import { recordedState } from './recorded-state.ts';
import { explainS3Error } from './s3-errors.ts';
import { destination, type CdnPlan } from './summary.ts';
import { PHASES } from './targets.ts';

export interface RollbackOptions extends BucketOptions {
  /** The release to restore; default the newest kept one older than the live one. */
  to?: string;
  dryRun: boolean;
  /** List the bucket and plan against what is really there, instead of trusting the records (recorded-state.ts). */
  verify?: boolean;
  concurrency: number;
  cloudfront?: CloudFrontOptions;
  keepReleases?: number;
  forceUnlock?: boolean;
  lock?: LockPolicy;
  exitOnSignal?: boolean;
  client?: S3Client;
  output?: Output;
  retry?: RetryPolicy;
}

export interface RollbackResult {
  dryRun: boolean;
  /** The release live before, if one was. */
  from?: string;
  to: string;
  plan: RollbackPlan;
  /** Whether the bucket was listed: --verify, or records that could not be trusted (`fallback` says why). */
  listed: boolean;
  fallback?: string;
  invalidation?: InvalidationResult;
  durationMs: number;
}

/** The release to restore: --to, or the newest kept one older than the live one. */
export function chooseRelease(index: ReleasesIndex, to: string | undefined, where: string): ReleaseSummary {
  const releases = newestFirst(index);
  if (releases.length === 0) {
    throw new DeployError(
      `No releases are recorded in ${where}, so there is nothing to roll back to. Releases are recorded by each ` +
        'deploy from this version of site-gen on; check --bucket and --prefix.',
    );
  }
  const ids = releases.map((release) => release.id).join(', ');
  if (to !== undefined) {
    const chosen = releases.find((release) => release.id === to);
    if (!chosen) throw new UsageError(`--to ${to}: no such release in ${where}. The kept ones are: ${ids}.`);
    return chosen;
  }
  if (!index.live) {
    throw new UsageError(
      `No release is live in ${where} (a deploy that records none changed it since), so "the one before" is unknown: ` +
        `name one with --to ID. The kept ones are: ${ids}.`,
    );
  }
  const older = releases.slice(releases.findIndex((release) => release.id === index.live) + 1);
  if (older.length === 0) {
    throw new UsageError(
      `The live release ${index.live} is the oldest kept in ${where}: there is none before it. ` +
        `Name another with --to ID (kept: ${ids}), or raise deploy.keepReleases to keep more.`,
    );
  }
  return older[0]!;
}

async function restoreOne(restore: Restore, context: RemoteContext): Promise<ObjectState> {
  const { storeEtag: _, ...state } = restore.state;
  try {
    const answer = await send(context, `restoring ${restore.key}`, () =>
      context.client.send(
        new CopyObjectCommand({
          Bucket: context.bucket,
          Key: restore.key,
          CopySource: copySource(context.bucket, restore.source),
          // The release's headers, not the source's: a kept copy keeps those of whichever object it came from.
          MetadataDirective: 'REPLACE',
          ContentType: state.contentType,
          CacheControl: state.cacheControl,
          ContentEncoding: state.contentEncoding,
          Metadata: state.md5 ? { md5: state.md5 } : undefined,
        }),
      ),
    );
    // The body is the one the release recorded (its kept copy is named by that ETag), whatever ETag the copy
    // answers: S3 with SSE-KMS answers one that is no MD5, s3rver with replaced headers the overwritten body's.
    // That answer is noted beside it, so the next listing is known for this body (manifest.ts, knownEtag).
    const answered = bareEtag(answer.CopyObjectResult?.ETag);
    return answered && answered !== state.etag ? { ...state, storeEtag: answered } : state;
  } catch (cause) {
    throw new DeployError(
      `Could not restore s3://${context.bucket}/${restore.key} from ${restore.source}: ${explainS3Error(cause, context)}. ` +
        'The rollback stopped there (assets before pages, deletes last, so visitors get a consistent site); run the same command again to finish.',
      { cause },
    );
  }
}

export async function rollback(options: RollbackOptions): Promise<RollbackResult> {
  const started = performance.now();
  const output = options.output ?? process.stdout;
  const reporter = createReporter(output);
  const cdn = options.cloudfront;
  const connection = connect(options, reporter);
  const { context, cdnClient } = connection;
  const where = destination(options.bucket, options.prefix);

  const run = async (lock?: HeldLock): Promise<RollbackResult> => {
    const index = await readIndex(context);
    const target = chooseRelease(index, options.to, where);
    const record = await readRecord(context, target.id);
    const keep = options.keepReleases ?? DEFAULTS.keepReleases;
    // The records say what the bucket holds, unless --verify asks for the listing or they cannot be trusted.
    const recorded = options.verify
      ? undefined
      : await recordedState(context, index, record, keep, options.concurrency);
    const fallback = recorded && 'reason' in recorded ? recorded.reason : undefined;
    if (fallback) reporter.message(`note: ${fallback}; listing ${where} instead.`);
    const listing = recorded && 'listing' in recorded ? recorded.listing : await listRemote(context);
    const plan = planRollback({ prefix: options.prefix, listing, record });
    if (plan.missing.length > 0) {
      throw new DeployError(
        `Release ${target.id} cannot be restored: ${plan.missing.length} of its files are no longer in ${where} ` +
          `(first: ${plan.missing[0]}; their kept copies were deleted). Nothing was changed. Deploy that release's ` +
          `commit${target.git ? ` (${target.git.commit}${target.git.dirty ? ', deployed with changes no commit holds' : ''})` : ''} instead.`,
      );
    }
    const addresses = await connection.addresses();
    const changed = [
      ...plan.restores.filter((restore) => restore.phase !== 'hashed-assets').map((restore) => restore.key),
      ...plan.deletes,
    ].map((key) => key.slice(options.prefix.length));
    const cdnPlan: CdnPlan | undefined = cdn && {
      distribution: cdn.distribution,
      ...invalidationForPaths(changed, addresses, cdn.maxPaths),
    };
    const from = index.live;
    const heading = `Rollback from release ${from ?? '(none recorded)'} to release ${describeRelease(target)}:`;
    const result: RollbackResult = {
      dryRun: options.dryRun,
      from,
      to: target.id,
      plan,
      listed: !recorded || fallback !== undefined,
      ...(fallback ? { fallback } : {}),
      durationMs: 0,
    };

    if (options.dryRun) {
      output.write(formatRollbackPlan(plan, heading, options.bucket, cdnPlan));
      result.durationMs = performance.now() - started;
      return result;
    }
    if (from === target.id && plan.restores.length === 0 && plan.deletes.length === 0) {
      output.write(`Release ${describeRelease(target)} is already live in ${where}: nothing to do.\n`);
      result.durationMs = performance.now() - started;
      return result;
    }

    // The bodies of the live release this rollback replaces or deletes are copied aside first: it stays restorable.
    const replacing = plan.restores.filter((restore) => restore.source !== restore.key).map((restore) => restore.key);
    const kept = new Set(listing.kept);
    const concurrency = { ...context, concurrency: options.concurrency };
    // Marked before anything changes, cleared when the index records the restored release: a rollback that dies
    // mid-way leaves the mark, and the next one lists the bucket.
    await markPending(context, index, 'rollback', describeHolder(whoAmI()), new Date());
    await keepCopies(
      keepBeforeChange([...replacing, ...plan.deletes], listing.objects, listing.manifest, kept),
      concurrency,
      kept,
    );

    reporter.message(`Rolling back ${where} to release ${describeRelease(target)}.`);
    const stored = new Map<string, ObjectState>();
    for (const phase of PHASES) {
      const batch = plan.restores.filter((restore) => restore.phase === phase);
      await forEachLimited(batch, options.concurrency, async (restore) => {
        stored.set(restore.key, await restoreOne(restore, context));
      });
    }
    await deleteMany(context, plan.deletes, 'files the replaced release added');

    // The lock is checked again before the manifest commits the rollback.
    await lock?.check();
    await writeJson(
      context,
      manifestKey(options.prefix),
      manifestAfterRollback(plan, record, stored, new Date()),
      true,
    );
    await saveIndex(context, { ...index, live: target.id, pending: undefined }, keep, kept);
    reporter.stop();
    output.write(formatRollbackSummary(plan, target, options.bucket, performance.now() - started));

    if (cdn && cdnClient && cdnPlan) {
      result.invalidation = await invalidateIfNeeded(
        cdnPlan,
        cdn,
        cdnClient,
        context,
        reporter,
        output,
        `rollback to ${target.id}`,
      );
    }
    result.durationMs = performance.now() - started;
    return result;
  };

  try {
    if (options.dryRun) {
      const note = await lockNote(context, options.lock);
      if (note) output.write(`${note}\n`);
      return await run();
    }
    const lock = await acquireLock(context, {
      command: 'rollback',
      policy: options.lock,
      forceUnlock: options.forceUnlock,
      warn: (line) => reporter.message(line),
    });
    return await holdingLock(lock, () => run(lock), options.exitOnSignal ?? false);
  } finally {
    reporter.stop();
    if (!options.client) context.client.destroy();
    if (cdn && !cdn.client) cdnClient?.destroy();
  }
}
