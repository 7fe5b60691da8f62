// Turns an error from the AWS SDK into a short reason a deployer can act on. Never includes credentials.

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const e = current as ErrorLike;
    if (e.code && /^(E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(e.code)) return e.code;
    current = e.cause;
  }
  return undefined;
}

export interface S3Context {
  bucket: string;
  endpoint?: string;
}

/**
 * The reason for a failure every AWS service shares (a connection that failed, no credentials, no answer in time), or
 * undefined. `where` names the service or endpoint, `flag` the option that points at it.
 */
export function explainCommonError(error: unknown, where: string, flag: string): string | undefined {
  const code = networkCode(error);
  if (code === 'ECONNREFUSED')
    return `${where} refused the connection (${code}); check ${flag} and that the service is running`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the host of ${where} could not be resolved (${code}); check ${flag} and the network`;
  if (code) return `the connection to ${where} failed (${code}); check the network, then run the deploy again`;
  const name = (error as ErrorLike | undefined)?.name;
  if (name === 'CredentialsProviderError') {
    return 'no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run where an IAM role is available';
  }
  if (name === 'TimeoutError') return `${where} did not answer in time; check the network, then run the deploy again`;
  return undefined;
}

/** The SDK's own words for an error no case above knows: name, message, HTTP status. */
export function describeServiceError(error: unknown): string {
  const e = (error ?? {}) as ErrorLike;
  const status = e.$metadata?.httpStatusCode;
  const name = e.name && e.name !== 'Error' ? `${e.name}: ` : '';
  return `${name}${e.message ?? String(error)}${status ? ` (HTTP ${status})` : ''}`;
}

/** Why the request failed and, where we know it, what to do. */
export function explainS3Error(error: unknown, context: S3Context): string {
  const e = (error ?? {}) as ErrorLike;
  const common = explainCommonError(error, context.endpoint ?? 'S3', '--endpoint');
  if (common) return common;
  switch (e.name) {
    case 'NoSuchBucket':
      return `the bucket "${context.bucket}" does not exist; create it or check --bucket, --region and --endpoint`;
    case 'AccessDenied':
    case 'Forbidden':
      return `access denied to the bucket "${context.bucket}"; the credentials need s3:ListBucket, s3:GetObject, s3:PutObject and s3:DeleteObject on it (see docs/deploying.md, "Minimal IAM policy")`;
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
      return `S3 rejected the credentials (${e.name}); check the access key and secret in your environment or profile`;
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return `the bucket "${context.bucket}" is in another region (${e.name}); pass --region with the bucket's region`;
  }
  if (e.message && /region is missing/i.test(e.message)) {
    return 'no AWS region set; pass --region, set deploy.region in site.config.ts, or set AWS_REGION';
  }
  return describeServiceError(error);
}
