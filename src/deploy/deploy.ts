// Deploys the built site to S3: read dist/, list the bucket, plan, then upload in order, delete, and record the manifest.
import { readHashedFiles } from '../core/http/hashed-files.ts';
import { createHttpPolicy } from '../core/http/policy.ts';
import { connect } from './connection.ts';
import type { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { DEFAULT_WAIT, invalidateCdn, type InvalidationResult } from './cloudfront.ts';
import { keepBeforeChange, keepCopies } from './keep.ts';
import { acquireLock, describeHolder, holdingLock, lockNote, whoAmI } from './lock.ts';
import {
  gitInfo,
  markPending,
  newReleaseId,
  saveIndex,
  readIndex,
  recordOf,
  summaryOf,
  writeIndex,
  writeRecord,
  type ReleaseRecord,
} from './releases.ts';
import { executePlan } from './execute.ts';
import { invalidationFor } from './invalidation.ts';
import { scanOutput } from './local.ts';
import { type CloudFrontOptions, DEFAULTS, type DeployOptions } from './options.ts';
import { keysToInspect, planDeploy } from './plan.ts';
import type { Plan } from './plan.ts';
import { createReporter, type DeployReporter, type Output } from './progress.ts';
import { inspectObjects, listRemote } from './remote.ts';
import type { Listing, RemoteContext } from './remote.ts';
import {
  destination,
  formatBlockedDeletes,
  formatInvalidated,
  formatPlan,
  formatSummary,
  type CdnPlan,
  type SummaryFigures,
} from './summary.ts';
import { targetsFor, type Target, type TargetOptions } from './targets.ts';
import { configureWebsite } from './website.ts';

export interface DeployResult extends Omit<SummaryFigures, 'bucket' | 'prefix'> {
  dryRun: boolean;
  plan: Plan;
  /** The CloudFront invalidation sent after the S3 part; absent without a distribution or when nothing changed. */
  invalidation?: InvalidationResult;
  /** The release recorded; absent when the deploy changed nothing (or was a dry run). */
  release?: string;
}

/** The objects the output folder should become, each with the headers the HTTP policy of its build gives it. */
export async function localTargets(outDir: string, options: Omit<TargetOptions, 'policy'>): Promise<Target[]> {
  const files = await scanOutput(outDir);
  return targetsFor(files, { ...options, policy: createHttpPolicy(await readHashedFiles(outDir)) });
}

async function planFromBucket(
  context: RemoteContext,
  targets: Target[],
  options: DeployOptions,
  reporter: DeployReporter,
): Promise<{ plan: Plan; listing: Listing }> {
  const listing = await listRemote(context);
  if (listing.unreadableManifest) {
    reporter.message(
      `note: the deploy manifest in ${destination(options.bucket, options.prefix)} is not readable; checking each object instead, and writing a new one.`,
    );
  }
  const inspected = await inspectObjects(context, keysToInspect(targets, listing), options.concurrency);
  const plan = planDeploy({ prefix: options.prefix, targets, listing, inspected, maxDeletes: options.maxDeletes });
  return { plan, listing };
}

/** Sends the CDN invalidation of a deploy or rollback (when there is anything to invalidate) and prints the outcome. */
export async function invalidateIfNeeded(
  cdnPlan: CdnPlan,
  cdn: CloudFrontOptions,
  client: CloudFrontClient,
  context: RemoteContext,
  reporter: DeployReporter,
  output: Output,
  what: string,
): Promise<InvalidationResult | undefined> {
  let invalidation: InvalidationResult | undefined;
  if (cdnPlan.paths.length > 0) {
    const where = destination(context.bucket, context.prefix);
    invalidation = await invalidateCdn(
      cdnPlan,
      {
        client,
        distribution: cdn.distribution,
        endpoint: cdn.endpoint,
        retry: context.retry,
        reporter,
        wait: cdn.wait,
        waitPolicy: cdn.waitPolicy ?? DEFAULT_WAIT,
        deployedTo: where,
      },
      `site-gen ${where} ${what} at ${new Date().toISOString()}`,
    );
    reporter.stop();
  }
  output.write(formatInvalidated(cdnPlan, invalidation));
  return invalidation;
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const started = performance.now();
  const output = options.output ?? process.stdout;
  const reporter = createReporter(output);

  const targets = await localTargets(options.outDir, { prefix: options.prefix, gzip: options.gzip });

  const cdn = options.cloudfront;
  const connection = connect(options, reporter);
  const { context, cdnClient } = connection;
  const cdnPlanOf = (plan: Plan, addresses: string): CdnPlan | undefined =>
    cdn && { distribution: cdn.distribution, ...invalidationFor(plan, cdn.maxPaths, addresses) };
  try {
    // Where visitors find the prefix behind the CDN: read before anything changes, as a wrong origin path stops here.
    const addresses = await connection.addresses();
    if (options.dryRun) {
      const note = await lockNote(context, options.lock);
      if (note) output.write(`${note}\n`);
      const { plan } = await planFromBucket(context, targets, options, reporter);
      output.write(
        formatPlan(plan, options.bucket, {
          configureWebsite: options.configureWebsite,
          cdn: cdnPlanOf(plan, addresses),
        }),
      );
      return {
        dryRun: true,
        plan,
        unchanged: plan.unchanged.length,
        retained: plan.retained.length,
        uploaded: 0,
        uploadedBytes: 0,
        deleted: 0,
        manifestWritten: false,
        durationMs: performance.now() - started,
      };
    }

    const lock = await acquireLock(context, {
      command: 'deploy',
      policy: options.lock,
      forceUnlock: options.forceUnlock,
      warn: (line) => reporter.message(line),
    });
    return await holdingLock(
      lock,
      async () => {
        const { plan, listing } = await planFromBucket(context, targets, options, reporter);
        const figures = { plan, unchanged: plan.unchanged.length, retained: plan.retained.length };
        const cdnPlan = cdnPlanOf(plan, addresses);

        // The live release's bodies this deploy replaces or deletes are copied aside first, for a rollback.
        const changing = [
          ...plan.uploads.filter((upload) => upload.reason !== 'new').map((upload) => upload.target.key),
          ...plan.deletes,
        ];
        const kept = new Set(listing.kept);
        const index = await readIndex(context);
        // Marked before anything changes: a deploy that dies mid-way leaves the mark, and a rollback then lists the
        // bucket rather than trust the records (rollback.ts).
        const changes = plan.uploads.length > 0 || plan.deletes.length > 0;
        if (changes) await markPending(context, index, 'deploy', describeHolder(whoAmI()), new Date());
        await keepCopies(
          keepBeforeChange(changing, listing.objects, listing.manifest, kept),
          { ...context, concurrency: options.concurrency },
          kept,
        );

        if (options.configureWebsite) await configureWebsite(context);
        reporter.start(plan, destination(options.bucket, options.prefix));
        const blocked = formatBlockedDeletes(plan);
        if (blocked) reporter.message(blocked);
        let release: ReleaseRecord | undefined;
        const done = await executePlan(plan, {
          ...context,
          concurrency: options.concurrency,
          reporter,
          // The lock is checked again before the manifest commits the deploy; then the release is recorded first.
          beforeManifest: async (manifest) => {
            await lock.check();
            const git = options.git === undefined ? gitInfo(process.cwd()) : (options.git ?? undefined);
            const now = new Date();
            release = recordOf(manifest, newReleaseId(now), now, describeHolder(whoAmI()), git);
            await writeRecord(context, release);
            return { ...manifest, release: release.id };
          },
        });
        reporter.stop();
        if (release) {
          const releases = [...index.releases, summaryOf(release)];
          const recorded = { ...index, live: release.id, releases, pending: undefined };
          await saveIndex(context, recorded, options.keepReleases ?? DEFAULTS.keepReleases, kept);
        } else if (changes) await writeIndex(context, index);

        const result: DeployResult = {
          dryRun: false,
          ...figures,
          uploaded: done.uploaded.size,
          uploadedBytes: done.uploadedBytes,
          deleted: done.deleted.length,
          manifestWritten: done.manifestWritten,
          durationMs: performance.now() - started,
          release: release?.id,
        };
        output.write(formatSummary({ bucket: options.bucket, prefix: options.prefix, ...result }));
        if (release)
          output.write(`Recorded release ${release.id}; undo it with: ${options.undo ?? 'site-gen rollback'}\n`);
        if (blocked) output.write(`${blocked}\n`);

        if (cdn && cdnClient && cdnPlan) {
          result.invalidation = await invalidateIfNeeded(
            cdnPlan,
            cdn,
            cdnClient,
            context,
            reporter,
            output,
            `generation ${plan.generation}`,
          );
        }
        return result;
      },
      options.exitOnSignal ?? false,
    );
  } finally {
    reporter.stop();
    if (!options.client) context.client.destroy();
    if (cdn && !cdn.client) cdnClient?.destroy();
  }
}
