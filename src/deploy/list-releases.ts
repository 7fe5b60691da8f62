// `site-gen releases`: reads the releases index (one request) and prints it.
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from './client.ts';
import type { BucketOptions } from './options.ts';
import type { Output } from './progress.ts';
import { formatReleases } from './release-text.ts';
import { newestFirst, readIndex, type ReleasesIndex } from './releases.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';

export interface ListReleasesOptions extends BucketOptions {
  json: boolean;
  client?: S3Client;
  output?: Output;
  retry?: RetryPolicy;
}

export async function listReleases(options: ListReleasesOptions): Promise<ReleasesIndex> {
  const output = options.output ?? process.stdout;
  const client = options.client ?? createS3Client({ region: options.region, endpoint: options.endpoint });
  try {
    const index = await readIndex({
      client,
      bucket: options.bucket,
      prefix: options.prefix,
      endpoint: options.endpoint,
      retry: options.retry ?? DEFAULT_RETRY,
    });
    output.write(
      options.json
        ? `${JSON.stringify({ live: index.live ?? null, releases: newestFirst(index) }, null, 2)}\n`
        : formatReleases(index, options.bucket, options.prefix),
    );
    return index;
  } finally {
    if (!options.client) client.destroy();
  }
}
