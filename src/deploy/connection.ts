// What deploy and rollback both open before they touch a bucket: the S3 client and its retrying context, the CloudFront
// client when a distribution is given, and the addresses visitors use for the prefix behind it.
import type { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from './client.ts';
import { addressPrefix, createCloudFrontClient } from './cloudfront.ts';
import type { CloudFrontOptions } from './options.ts';
import type { DeployReporter } from './progress.ts';
import type { RemoteContext } from './remote.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { explainS3Error } from './s3-errors.ts';

export interface ConnectionOptions {
  bucket: string;
  prefix: string;
  region?: string;
  endpoint?: string;
  client?: S3Client;
  retry?: RetryPolicy;
  cloudfront?: CloudFrontOptions;
}

export interface Connection {
  context: RemoteContext;
  /** The CloudFront client, when a distribution is given (made here unless the options bring one). */
  cdnClient?: CloudFrontClient;
  /**
   * Where visitors find the prefix behind the CDN (the distribution's origin path taken off), or the prefix itself
   * without a CDN. Read before anything changes: a wrong origin path stops the run there.
   */
  addresses(): Promise<string>;
}

export function connect(options: ConnectionOptions, reporter: DeployReporter): Connection {
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
  return {
    context,
    cdnClient,
    addresses: async () =>
      cdn && cdnClient
        ? addressPrefix({ ...cdn, client: cdnClient, retry: context.retry, reporter }, options.prefix, options.bucket)
        : options.prefix,
  };
}
