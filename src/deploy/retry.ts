// Retries an S3 request on throttling and network errors, with exponential backoff and full jitter.

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 8000 };

export interface RetryHooks {
  /** Called before waiting for the next try. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const RETRYABLE_NAMES = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalError',
  'ServiceUnavailable',
  'TimeoutError',
]);

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

interface ErrorLike {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** Throttling, a 5xx or 429 answer, a timeout, or a dropped or refused connection: worth another try. */
export function isRetryable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const e = current as ErrorLike;
    if (e.$retryable) return true;
    if (e.name && RETRYABLE_NAMES.has(e.name)) return true;
    if (e.code && RETRYABLE_CODES.has(e.code)) return true;
    const status = e.$metadata?.httpStatusCode;
    if (status !== undefined && (status === 429 || status >= 500)) return true;
    current = e.cause;
  }
  return false;
}

/** Delay before try number `attempt + 1`: a random time up to base * 2^(attempt - 1), capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withRetry<T>(run: () => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  const sleep = hooks.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= policy.attempts || !isRetryable(error)) throw error;
      const delayMs = backoffDelay(attempt, policy, hooks.random);
      hooks.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs);
    }
  }
}
