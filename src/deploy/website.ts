// --configure-website: sets the bucket's S3 website hosting to serve index.html for folders and 404.html for misses.
import { PutBucketWebsiteCommand } from '@aws-sdk/client-s3';
import type { WebsiteConfiguration } from '@aws-sdk/client-s3';
import { DeployError } from '../core/errors.ts';
import { INDEX_FILE, NOT_FOUND_FILE } from '../core/http/paths.ts';
import { send } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { explainS3Error } from './s3-errors.ts';

export function websiteConfiguration(prefix: string): WebsiteConfiguration {
  // The index suffix applies to every folder of the bucket; the error document is a key, so it carries the prefix.
  return { IndexDocument: { Suffix: INDEX_FILE }, ErrorDocument: { Key: `${prefix}${NOT_FOUND_FILE}` } };
}

export async function configureWebsite(context: RemoteContext): Promise<void> {
  try {
    await send(context, 'setting the website configuration', () =>
      context.client.send(
        new PutBucketWebsiteCommand({
          Bucket: context.bucket,
          WebsiteConfiguration: websiteConfiguration(context.prefix),
        }),
      ),
    );
  } catch (cause) {
    throw new DeployError(
      `Could not set the website configuration of the bucket "${context.bucket}" (--configure-website): ` +
        `${explainS3Error(cause, context)}. The credentials need s3:PutBucketWebsite; or set it up once in the S3 console ` +
        'and deploy without --configure-website.',
      { cause },
    );
  }
}
