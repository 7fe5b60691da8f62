// Invalidates the CloudFront distribution in front of the bucket after a deploy: one batch of paths, waited for on request.
import {
  CloudFrontClient,
  CreateInvalidationCommand,
  GetDistributionConfigCommand,
  GetInvalidationCommand,
} from '@aws-sdk/client-cloudfront';
import { CdnError, DeployError } from '../core/errors.ts';
import type { InvalidationPlan } from './invalidation.ts';
import { normalizePrefix } from './options.ts';
import type { DeployReporter } from './progress.ts';
import { withRetry } from './retry.ts';
import type { RetryPolicy } from './retry.ts';
import { describeServiceError, explainCommonError } from './s3-errors.ts';
import { formatDuration } from './summary.ts';

/** How --wait polls: the first look soon (small invalidations finish in seconds), then less and less often. */
export interface WaitPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Give up waiting (the invalidation carries on by itself) after this long. */
  timeoutMs: number;
}

export const DEFAULT_WAIT: WaitPolicy = { firstDelayMs: 1000, maxDelayMs: 15_000, timeoutMs: 30 * 60_000 };

export interface CdnContext {
  client: CloudFrontClient;
  distribution: string;
  /** --cloudfront-endpoint, when set: named in connection errors. */
  endpoint?: string;
  retry: RetryPolicy;
  reporter: DeployReporter;
  wait: boolean;
  waitPolicy: WaitPolicy;
  /** Where the site was deployed, s3://bucket/prefix, for the message that says the deploy is half done. */
  deployedTo: string;
  sleep?: (ms: number) => Promise<void>;
}

export interface InvalidationResult {
  id: string;
  /** CloudFront's last word: "InProgress", or "Completed" after --wait. */
  status: string;
  paths: string[];
  durationMs: number;
}

export function createCloudFrontClient(endpoint?: string): CloudFrontClient {
  // The SDK warns on Node 20 that *future* SDK releases will need Node 22, as in client.ts.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new CloudFrontClient({
    // CloudFront is global: its API is signed for us-east-1, whatever the bucket's region.
    region: 'us-east-1',
    endpoint,
    // The same credential chain as S3 (the SDK's default); retries are retry.ts's, as for S3.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
  });
}

/** Why a CloudFront request failed and what to do. */
export function explainCloudFrontError(error: unknown, context: Pick<CdnContext, 'distribution' | 'endpoint'>): string {
  const common = explainCommonError(error, context.endpoint ?? 'CloudFront', '--cloudfront-endpoint');
  if (common) return common;
  const { distribution } = context;
  switch ((error as { name?: string } | undefined)?.name) {
    case 'NoSuchDistribution':
      return (
        `CloudFront has no distribution "${distribution}" for these credentials; check --cloudfront-distribution (or ` +
        "deploy.cloudfront.distribution): it is the ID on the distribution's page in the CloudFront console, such as E2QWRUHAPOMQZL"
      );
    case 'AccessDenied':
      return (
        `access denied to the CloudFront distribution "${distribution}"; the credentials need cloudfront:CreateInvalidation ` +
        '(and cloudfront:GetInvalidation for --wait) on it (see docs/deploying.md, "Operating the site")'
      );
    case 'NoSuchInvalidation':
      return 'CloudFront no longer knows the invalidation it just created';
    case 'TooManyInvalidationsInProgress':
      return `the distribution "${distribution}" has too many invalidations in progress (TooManyInvalidationsInProgress); wait for them to finish`;
    case 'Throttling':
      return `CloudFront refused the request as too frequent (Throttling: ${(error as Error).message})`;
    case 'InvalidArgument':
      return `CloudFront refused the paths (InvalidArgument: ${(error as Error).message})`;
  }
  return describeServiceError(error);
}

const quote = (path: string) => `"${path}"`;

/** The command that does by hand what the deploy could not, for the error message. */
export function manualCommand(distribution: string, paths: readonly string[]): string {
  return `aws cloudfront create-invalidation --distribution-id ${distribution} --paths ${paths.map(quote).join(' ')}`;
}

function notInvalidated(context: CdnContext, paths: readonly string[], cause: unknown): CdnError {
  return new CdnError(
    `Deployed to ${context.deployedTo}, but the CloudFront distribution ${context.distribution} was not invalidated: ` +
      `${explainCloudFrontError(cause, context)}. Visitors may get the old pages until CloudFront's cache expires. ` +
      'Running the deploy again will not invalidate (nothing is left to upload); once fixed, run: ' +
      manualCommand(context.distribution, paths),
    { cause },
  );
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function send<T>(context: CdnContext, what: string, run: () => Promise<T>): Promise<T> {
  return withRetry(run, context.retry, {
    sleep: context.sleep,
    onRetry: ({ attempt, delayMs, error }) =>
      context.reporter.retrying(what, attempt, delayMs, explainCloudFrontError(error, context)),
  });
}

/** Polls the invalidation until CloudFront says it is complete, showing its state on the deploy's progress display. */
async function waitUntilCompleted(context: CdnContext, id: string, started: number): Promise<string> {
  const sleep = context.sleep ?? defaultSleep;
  const policy = context.waitPolicy;
  let delay = policy.firstDelayMs;
  for (;;) {
    const elapsed = performance.now() - started;
    if (elapsed >= policy.timeoutMs) {
      throw new CdnError(
        `Deployed to ${context.deployedTo}; the CloudFront invalidation ${id} of the distribution ${context.distribution} ` +
          `is still in progress after ${formatDuration(elapsed)}, and completes by itself. Check on it with: ` +
          `aws cloudfront get-invalidation --distribution-id ${context.distribution} --id ${id}`,
      );
    }
    context.reporter.status(`CloudFront invalidation ${id}: in progress, ${formatDuration(elapsed)}`);
    await sleep(Math.min(delay, policy.timeoutMs - elapsed));
    delay = Math.min(policy.maxDelayMs, delay * 2);
    let status: string | undefined;
    try {
      const answer = await send(context, `reading the invalidation ${id}`, () =>
        context.client.send(new GetInvalidationCommand({ DistributionId: context.distribution, Id: id })),
      );
      status = answer.Invalidation?.Status;
    } catch (cause) {
      throw new CdnError(
        `Deployed to ${context.deployedTo}, and the CloudFront invalidation ${id} is created, but --wait could not follow it: ` +
          `${explainCloudFrontError(cause, context)}. It completes by itself; --wait needs cloudfront:GetInvalidation.`,
        { cause },
      );
    }
    if (status === 'Completed') return status;
  }
}

/**
 * Sends one invalidation of `plan.paths` to the distribution (and with `wait`, waits for it to complete). Every
 * failure is a CdnError, whose exit code says the files are on S3 but the CDN may still serve the old ones.
 */
export async function invalidateCdn(
  plan: InvalidationPlan,
  context: CdnContext,
  callerReference: string,
): Promise<InvalidationResult> {
  const started = performance.now();
  const { paths } = plan;
  let id: string;
  let status: string;
  try {
    // One reference for every try: CloudFront answers a repeated request with the invalidation it already made.
    const answer = await send(context, `invalidating ${paths.length} paths in CloudFront`, () =>
      context.client.send(
        new CreateInvalidationCommand({
          DistributionId: context.distribution,
          InvalidationBatch: { CallerReference: callerReference, Paths: { Quantity: paths.length, Items: [...paths] } },
        }),
      ),
    );
    id = answer.Invalidation?.Id ?? '';
    status = answer.Invalidation?.Status ?? 'InProgress';
    if (!id) throw new Error('CloudFront answered without an invalidation ID');
  } catch (cause) {
    throw notInvalidated(context, paths, cause);
  }
  if (context.wait && status !== 'Completed') status = await waitUntilCompleted(context, id, started);
  return { id, status, paths: [...paths], durationMs: performance.now() - started };
}

/**
 * Where visitors find the deploy's prefix: CloudFront serves the keys under its origin's path (the origin of the
 * default cache behaviour) at its root, so a deploy to "site/" behind an origin path "/site" is at "/" for visitors.
 * Asked before anything changes; when the distribution cannot be read, a warning, and the prefix as it is.
 */
export async function addressPrefix(
  context: Pick<CdnContext, 'client' | 'distribution' | 'endpoint' | 'retry' | 'reporter'>,
  prefix: string,
  bucket: string,
): Promise<string> {
  let originPath: string;
  try {
    const answer = await withRetry(
      () => context.client.send(new GetDistributionConfigCommand({ Id: context.distribution })),
      context.retry,
    );
    const config = answer.DistributionConfig;
    const originId = config?.DefaultCacheBehavior?.TargetOriginId;
    const origin = config?.Origins?.Items?.find((item) => item.Id === originId) ?? config?.Origins?.Items?.[0];
    originPath = origin?.OriginPath ?? '';
  } catch (error) {
    context.reporter.message(
      `warning: could not read the origin path of the CloudFront distribution ${context.distribution} ` +
        `(${explainCloudFrontError(error, context)}); invalidating the paths as keys under the bucket root. ` +
        'Allow cloudfront:GetDistributionConfig if its origin has an origin path.',
    );
    return prefix;
  }
  const served = normalizePrefix(originPath);
  if (!prefix.startsWith(served)) {
    throw new DeployError(
      `The CloudFront distribution ${context.distribution} serves s3://${bucket}/${served} (its origin path is ` +
        `"${originPath}"), but this deploy writes to s3://${bucket}/${prefix}: its visitors would never see it. ` +
        'Check --prefix (or deploy.prefix) and --cloudfront-distribution; nothing was changed.',
    );
  }
  return prefix.slice(served.length);
}
