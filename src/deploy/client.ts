// Creates the S3 client: credentials from the AWS SDK's default chain only, retries left to retry.ts.
import { S3Client } from '@aws-sdk/client-s3';

export interface ClientOptions {
  region?: string;
  endpoint?: string;
}

export function createS3Client(options: ClientOptions): S3Client {
  // The SDK warns on Node 20 that *future* SDK releases will need Node 22; the version site-gen pins works on 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    // S3-compatible services (MinIO, R2, s3rver) take any region name; AWS itself resolves it from the environment.
    region: options.region ?? (options.endpoint ? 'us-east-1' : undefined),
    endpoint: options.endpoint,
    // Path-style works on every S3-compatible service and with bucket names that contain dots.
    forcePathStyle: options.endpoint !== undefined,
    maxAttempts: 1,
    // Bodies are Buffers with a Content-MD5; the default CRC trailer would need aws-chunked encoding, which
    // several S3-compatible services store verbatim.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  });
}
