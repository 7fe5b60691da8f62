// One deploy or rollback at a time per bucket and prefix: a lock object, taken before anything changes, renewed while
// held, released when done. On S3 the write is conditional (If-None-Match: *, If-Match for a takeover); stores that
// ignore those headers (s3rver) get write, wait, read back: see docs/releases-and-rollback.md for what each guarantees.
import { randomUUID } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { DeployError, LockedError } from '../core/errors.ts';
import { readText, send } from './remote.ts';
import type { RemoteContext } from './remote.ts';
import { explainS3Error } from './s3-errors.ts';
import { formatDuration } from './summary.ts';
import { lockKey } from './state-keys.ts';

export interface LockPolicy {
  /** A holder that has not renewed its lock for this long is taken to have crashed; it renews every third of it. */
  leaseMs: number;
  /** After writing the lock, wait this long and read it back: a rival that wrote in between is seen. */
  settleMs: number;
}

export const DEFAULT_LOCK: LockPolicy = { leaseMs: 5 * 60_000, settleMs: 400 };

const recordSchema = z.object({
  version: z.literal(1),
  token: z.string(),
  command: z.string(),
  host: z.string(),
  user: z.string(),
  ci: z.string().optional(),
  pid: z.number().optional(),
  startedAt: z.string(),
  renewedAt: z.string(),
  leaseMs: z.number().int().positive(),
});

export type LockRecord = z.infer<typeof recordSchema>;

/** The CI job this runs in, by the variables the common CI services set: a link where there is one. */
export function ciJob(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GITHUB_ACTIONS && env.GITHUB_RUN_ID) {
    const url = `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
    return `GitHub Actions job ${env.GITHUB_JOB ?? '?'} (${url})`;
  }
  if (env.GITLAB_CI && env.CI_JOB_URL) return `GitLab CI job ${env.CI_JOB_NAME ?? env.CI_JOB_ID} (${env.CI_JOB_URL})`;
  if (env.CIRCLECI && env.CIRCLE_BUILD_URL)
    return `CircleCI job ${env.CIRCLE_JOB ?? ''} (${env.CIRCLE_BUILD_URL})`.replace('  ', ' ');
  if (env.BUILD_URL) return `CI build ${env.BUILD_URL}`;
  return undefined;
}

/** Who is running: user@host, and the CI job. */
export function whoAmI(env: NodeJS.ProcessEnv = process.env): { host: string; user: string; ci?: string } {
  let user = env.USER ?? env.USERNAME ?? '';
  try {
    user ||= userInfo().username;
  } catch {
    user ||= 'unknown';
  }
  const ci = ciJob(env);
  return ci ? { host: hostname(), user, ci } : { host: hostname(), user };
}

export function describeHolder(record: Pick<LockRecord, 'host' | 'user' | 'ci'>): string {
  return `${record.user}@${record.host}${record.ci ? `, ${record.ci}` : ''}`;
}

interface ReadLock {
  record?: LockRecord;
  etag: string;
  /** When the store last wrote it: the renewal time by the store's clock. */
  lastModified?: Date;
}

function parseLock(text: string): LockRecord | undefined {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lock as stored, if any. A body that does not parse is read again a few times first: a store without atomic
 * writes (s3rver) can answer a read made during a rival's write with part of it.
 */
async function readLock(context: RemoteContext): Promise<ReadLock | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await readText(context, lockKey(context.prefix));
    if (!stored) return undefined;
    const record = parseLock(stored.text);
    if (record || attempt >= 4) return { record, etag: stored.etag, lastModified: stored.lastModified };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** When a lock stops counting: its last renewal (the later of its own word and the store's time) plus its lease. */
function expiresAt(lock: ReadLock, policy: LockPolicy): number {
  const renewed = Math.max(lock.record ? Date.parse(lock.record.renewedAt) || 0 : 0, lock.lastModified?.getTime() ?? 0);
  return renewed + (lock.record?.leaseMs ?? policy.leaseMs);
}

function where(context: RemoteContext): string {
  return `s3://${context.bucket}/${context.prefix}`;
}

/** The refusal: who holds it since when, and what to do. */
export function lockedMessage(context: RemoteContext, lock: ReadLock, policy: LockPolicy, now: number): string {
  const { record } = lock;
  const expires = expiresAt(lock, policy);
  const holder = record
    ? `a ${record.command} by ${describeHolder(record)}, started ${record.startedAt} (${formatDuration(now - Date.parse(record.startedAt))} ago)`
    : `an unreadable lock written ${lock.lastModified?.toISOString() ?? 'at an unknown time'}`;
  return (
    `${where(context)} is locked by ${holder}. Another deploy or rollback is changing this site; wait for it to finish ` +
    `and run this command again. If that run crashed, its lock lapses at ${new Date(expires).toISOString()} ` +
    `(${formatDuration(Math.max(0, expires - now))} from now) and is then taken over; if you are sure it is not ` +
    `running, run again with --force-unlock. (The lock is s3://${context.bucket}/${lockKey(context.prefix)}.)`
  );
}

function isConditionFailure(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === 'PreconditionFailed' ||
    e?.name === 'ConditionalRequestConflict' ||
    e?.$metadata?.httpStatusCode === 412 ||
    e?.$metadata?.httpStatusCode === 409
  );
}

export interface LockOptions {
  command: 'deploy' | 'rollback';
  policy?: LockPolicy;
  /** Remove any lock first (--force-unlock). */
  forceUnlock?: boolean;
  /** Warnings: a lock taken over or removed, a renewal that failed. */
  warn: (line: string) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Who is running; default whoAmI(). */
  holder?: { host: string; user: string; ci?: string };
}

export interface HeldLock {
  /** Throws if another run holds the lock now (ours lapsed and was taken over): call before a step that commits. */
  check(): Promise<void>;
  /** Deletes the lock if it is still ours; never throws (a failure is a warning: the lease frees it later). */
  release(): Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function writeLock(
  context: RemoteContext,
  record: LockRecord,
  condition: { IfNoneMatch: '*' } | { IfMatch: string },
): Promise<void> {
  const body = Buffer.from(`${JSON.stringify(record, null, 2)}\n`);
  await send(context, 'writing the deploy lock', () =>
    context.client.send(
      new PutObjectCommand({
        Bucket: context.bucket,
        Key: lockKey(context.prefix),
        Body: body,
        ContentType: 'application/json; charset=utf-8',
        CacheControl: 'no-store',
        ...condition,
      }),
    ),
  );
}

async function deleteLock(context: RemoteContext): Promise<void> {
  await send(context, 'removing the deploy lock', () =>
    context.client.send(new DeleteObjectCommand({ Bucket: context.bucket, Key: lockKey(context.prefix) })),
  );
}

/** Takes the lock or throws LockedError naming the holder. */
export async function acquireLock(context: RemoteContext, options: LockOptions): Promise<HeldLock> {
  const policy = options.policy ?? DEFAULT_LOCK;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const failed = (cause: unknown, doing: string) =>
    new DeployError(
      `Could not ${doing} the deploy lock s3://${context.bucket}/${lockKey(context.prefix)}: ${explainS3Error(cause, context)}. ` +
        'Nothing was changed; the credentials need s3:GetObject, s3:PutObject and s3:DeleteObject on it.',
      { cause },
    );

  let existing = await readLock(context);
  if (existing && options.forceUnlock) {
    const who = existing.record ? describeHolder(existing.record) : 'an unreadable lock';
    options.warn(
      `warning: --force-unlock: removed the lock of ${where(context)} held by ${who}` +
        `${existing.record ? ` since ${existing.record.startedAt}` : ''}. If that run is still going, the two now interleave.`,
    );
    try {
      await deleteLock(context);
    } catch (cause) {
      throw failed(cause, 'remove');
    }
    existing = undefined;
  }
  if (existing && expiresAt(existing, policy) > now())
    throw new LockedError(lockedMessage(context, existing, policy, now()));

  const started = new Date(now()).toISOString();
  const record: LockRecord = {
    version: 1,
    token: randomUUID(),
    command: options.command,
    ...(options.holder ?? whoAmI()),
    pid: process.pid,
    startedAt: started,
    renewedAt: started,
    leaseMs: policy.leaseMs,
  };
  if (existing) {
    const who = existing.record
      ? `${describeHolder(existing.record)} (a ${existing.record.command} started ${existing.record.startedAt})`
      : 'an unreadable lock';
    options.warn(
      `warning: taking over the lock of ${where(context)} from ${who}: not renewed for longer than its lease, so that run is taken to have crashed. ` +
        'Check that the site is complete after this run.',
    );
  }
  try {
    await writeLock(context, record, existing ? { IfMatch: `"${existing.etag}"` } : { IfNoneMatch: '*' });
  } catch (cause) {
    if (!isConditionFailure(cause)) throw failed(cause, 'write');
    // A rival wrote it first (S3 refused our conditional write): name it.
    const rival = await readLock(context);
    if (rival) throw new LockedError(lockedMessage(context, rival, policy, now()));
    throw new LockedError(
      `${where(context)} is being locked by another run at this moment; run this command again in a few seconds.`,
    );
  }

  // Stores that ignore the conditions let a rival overwrite ours: the last writer wins, and both read it back.
  await sleep(policy.settleMs);
  const check = async (): Promise<void> => {
    const current = await readLock(context);
    if (current?.record?.token === record.token) return;
    if (current) throw new LockedError(lockedMessage(context, current, policy, now()));
    throw new LockedError(
      `The lock of ${where(context)} disappeared while this ${options.command} held it (removed by --force-unlock elsewhere?). ` +
        'Another run may be changing the site; check with `site-gen releases`, then run this command again.',
    );
  };
  await check();

  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = (async () => {
        try {
          const current = await readLock(context);
          // Lost (lapsed and taken over): check() says so at the next step that commits.
          if (current?.record?.token !== record.token) return;
          await writeLock(
            context,
            { ...record, renewedAt: new Date(now()).toISOString() },
            { IfMatch: `"${current.etag}"` },
          );
        } catch (error) {
          options.warn(
            `warning: could not renew the deploy lock: ${explainS3Error(error, context)}; trying again later.`,
          );
        }
      })();
    },
    Math.max(10, Math.floor(policy.leaseMs / 3)),
  );
  timer.unref();

  let released = false;
  return {
    check,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await renewing;
      try {
        const current = await readLock(context);
        if (current?.record?.token === record.token) await deleteLock(context);
      } catch (error) {
        options.warn(
          `warning: could not remove the deploy lock s3://${context.bucket}/${lockKey(context.prefix)}: ` +
            `${explainS3Error(error, context)}. It lapses by itself after ${formatDuration(policy.leaseMs)}, or run with --force-unlock.`,
        );
      }
    },
  };
}

/** What a dry run says about the lock: who holds it, or nothing. */
export async function lockNote(context: RemoteContext, policy: LockPolicy = DEFAULT_LOCK): Promise<string | undefined> {
  const existing = await readLock(context);
  if (!existing) return undefined;
  const now = Date.now();
  if (expiresAt(existing, policy) <= now)
    return `note: ${where(context)} has a lapsed lock; a deploy would take it over.`;
  return `note: ${lockedMessage(context, existing, policy, now)}`;
}

/**
 * Releases `lock` if the process is interrupted (Ctrl-C, or CI cancelling the job) while `run` goes, then exits with
 * 130 or 143 as a shell would. Any other ending of `run` (done or failed) releases it too.
 */
export async function holdingLock<T>(lock: HeldLock, run: () => Promise<T>, exitOnSignal: boolean): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\nInterrupted (${signal}): releasing the deploy lock, then stopping.\n`);
    void lock.release().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  if (exitOnSignal) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  try {
    return await run();
  } finally {
    if (exitOnSignal) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await lock.release();
  }
}
