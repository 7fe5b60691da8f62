// Deploys the built site to S3: read dist/, list the bucket, plan, then upload in order, delete, and record the manifest.
import { readHashedFiles } from '../core/http/hashed-files.ts';
import { createHttpPolicy } from '../core/http/policy.ts';
import { createS3Client } from './client.ts';
import { createCloudFrontClient, DEFAULT_WAIT, invalidateCdn, type InvalidationResult } from './cloudfront.ts';
import { executePlan } from './execute.ts';
import { invalidationFor } from './invalidation.ts';
import { scanOutput } from './local.ts';
import type { DeployOptions } from './options.ts';
import { keysToInspect, planDeploy } from './plan.ts';
import type { Plan } from './plan.ts';
import { createReporter } from './progress.ts';
import { inspectObjects, listRemote } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { DEFAULT_RETRY } from './retry.ts';
import { explainS3Error } from './s3-errors.ts';
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
}

/** The objects the output folder should become, each with the headers the HTTP policy of its build gives it. */
export async function localTargets(outDir: string, options: Omit<TargetOptions, 'policy'>): Promise<Target[]> {
  const files = await scanOutput(outDir);
  return targetsFor(files, { ...options, policy: createHttpPolicy(await readHashedFiles(outDir)) });
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const started = performance.now();
  const output = options.output ?? process.stdout;
  const reporter = createReporter(output);

  const targets = await localTargets(options.outDir, { prefix: options.prefix, gzip: options.gzip });

  const client = options.client ?? createS3Client({ region: options.region, endpoint: options.endpoint });
  const cdn = options.cloudfront;
  const cdnClient = cdn ? (cdn.client ?? createCloudFrontClient(cdn.endpoint)) : undefined;
  const context: RemoteContext = {
    client,
    bucket: options.bucket,
    prefix: options.prefix,
    endpoint: options.endpoint,
    retry: options.retry ?? DEFAULT_RETRY,
  };
  context.onRetry = (what, attempt, delayMs, error) =>
    reporter.retrying(what, attempt, delayMs, explainS3Error(error, context));
  try {
    const listing = await listRemote(context);
    if (listing.unreadableManifest) {
      const where = destination(options.bucket, options.prefix);
      reporter.message(
        `note: the deploy manifest in ${where} is not readable; checking each object instead, and writing a new one.`,
      );
    }
    const inspected = await inspectObjects(context, keysToInspect(targets, listing), options.concurrency);
    const plan = planDeploy({ prefix: options.prefix, targets, listing, inspected, maxDeletes: options.maxDeletes });
    const figures = { plan, unchanged: plan.unchanged.length, retained: plan.retained.length };
    const cdnPlan: CdnPlan | undefined = cdn && {
      distribution: cdn.distribution,
      ...invalidationFor(plan, cdn.maxPaths),
    };

    if (options.dryRun) {
      output.write(formatPlan(plan, options.bucket, { configureWebsite: options.configureWebsite, cdn: cdnPlan }));
      return {
        dryRun: true,
        ...figures,
        uploaded: 0,
        uploadedBytes: 0,
        deleted: 0,
        manifestWritten: false,
        durationMs: performance.now() - started,
      };
    }

    if (options.configureWebsite) await configureWebsite(context);
    reporter.start(plan, destination(options.bucket, options.prefix));
    const blocked = formatBlockedDeletes(plan);
    if (blocked) reporter.message(blocked);
    const done = await executePlan(plan, { ...context, concurrency: options.concurrency, reporter });
    reporter.stop();

    const result: DeployResult = {
      dryRun: false,
      ...figures,
      uploaded: done.uploaded.size,
      uploadedBytes: done.uploadedBytes,
      deleted: done.deleted.length,
      manifestWritten: done.manifestWritten,
      durationMs: performance.now() - started,
    };
    output.write(formatSummary({ bucket: options.bucket, prefix: options.prefix, ...result }));
    if (blocked) output.write(`${blocked}\n`);

    if (cdn && cdnClient && cdnPlan) {
      if (cdnPlan.paths.length > 0) {
        const where = destination(options.bucket, options.prefix);
        result.invalidation = await invalidateCdn(
          cdnPlan,
          {
            client: cdnClient,
            distribution: cdn.distribution,
            endpoint: cdn.endpoint,
            retry: context.retry,
            reporter,
            wait: cdn.wait,
            waitPolicy: cdn.waitPolicy ?? DEFAULT_WAIT,
            deployedTo: where,
          },
          `site-gen ${where} generation ${plan.generation} at ${new Date().toISOString()}`,
        );
        reporter.stop();
      }
      output.write(formatInvalidated(cdnPlan, result.invalidation));
    }
    return result;
  } finally {
    reporter.stop();
    if (!options.client) client.destroy();
    if (cdn && !cdn.client) cdnClient?.destroy();
  }
}
