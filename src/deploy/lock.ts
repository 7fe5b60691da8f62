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

/** When a lock lapses, as a deployer reads it: the time and how far off it is. */
function lapse(expires: number, now: number): string {
  return `${new Date(expires).toISOString()} (${formatDuration(Math.max(0, expires - now))} from now)`;
}

/** Whether the process `pid` of this machine is gone (a kill(0) answers ESRCH); a process of another user is not. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}

/** Who is asking, to tell a run of one's own that died from another's. */
export type Me = { host: string; user: string; gone?: (pid: number) => boolean };

/** The refusal: who holds it since when, and what to do. */
export function lockedMessage(
  context: RemoteContext,
  lock: ReadLock,
  policy: LockPolicy,
  now: number,
  me: Me = whoAmI(),
): string {
  const { record } = lock;
  const expires = expiresAt(lock, policy);
  const holder = record
    ? `a ${record.command} by ${describeHolder(record)}, started ${record.startedAt} (${formatDuration(now - Date.parse(record.startedAt))} ago)`
    : `an unreadable lock written ${lock.lastModified?.toISOString() ?? 'at an unknown time'}`;
  const lockAt = `(The lock is s3://${context.bucket}/${lockKey(context.prefix)}.)`;
  // The host and user only say it is likely ours: two containers can share both, so the lock is never taken by this.
  const ours = record?.pid !== undefined && record.host === me.host && record.user === me.user;
  if (ours && record?.pid !== process.pid && (me.gone ?? processGone)(record.pid!)) {
    return (
      `${where(context)} is locked by ${holder}: a run of yours on this machine whose process (pid ${record.pid}) is ` +
      'no longer running. It stopped without removing its lock (S3 failed, or the process was killed). If no other ' +
      'deploy or rollback of this site is running, run this command again with --force-unlock to remove it now; ' +
      `otherwise the lock lapses at ${lapse(expires, now)} and is then taken over. ${lockAt}`
    );
  }
  return (
    `${where(context)} is locked by ${holder}. Another deploy or rollback is changing this site; wait for it to finish ` +
    `and run this command again. If that run crashed, its lock lapses at ${lapse(expires, now)} and is then taken ` +
    `over; if you are sure it is not running, run again with --force-unlock. ${lockAt}`
  );
}

/**
 * What to do when this run's lock may be left in the bucket (removing it failed, or S3 failed around its write): the
 * next run is refused until it lapses, unless it is told to remove it.
 */
export function leftLockNote(context: RemoteContext, expires: number, now: number, why: string): string {
  return (
    `The deploy lock s3://${context.bucket}/${lockKey(context.prefix)} may still be there (${why}): until it lapses ` +
    `at ${lapse(expires, now)}, the same command is refused with exit code 4. To run it again sooner, add ` +
    "--force-unlock (the lock is this run's own; use it only if no other deploy or rollback of this site is running)."
  );
}

/** `error` with `note` added to what it says, when it is an Error; a non-error thrown goes on as it is. */
function withNote(error: unknown, note: string | undefined): unknown {
  if (note && error instanceof Error) error.message = `${error.message} ${note}`;
  return error;
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
  /**
   * Deletes the lock if it is still ours; never throws. When that fails, returns what to do (leftLockNote), and
   * warns with it too unless `quiet` (the caller then adds it to the error it reports).
   */
  release(options?: { quiet?: boolean }): Promise<string | undefined>;
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
  const me = options.holder ?? whoAmI();
  if (existing && expiresAt(existing, policy) > now())
    throw new LockedError(lockedMessage(context, existing, policy, now(), me));

  const started = new Date(now()).toISOString();
  const record: LockRecord = {
    version: 1,
    token: randomUUID(),
    command: options.command,
    ...me,
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
  // The latest time the store may have written our lock, by our clock: it lapses a lease after.
  let writtenBy = now();
  try {
    await writeLock(context, record, existing ? { IfMatch: `"${existing.etag}"` } : { IfNoneMatch: '*' });
    writtenBy = now();
  } catch (cause) {
    if (!isConditionFailure(cause)) {
      // No answer at all (the connection failed, or timed out) does not say the write did not land.
      const answered = (cause as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
      const error = failed(cause, 'write');
      throw answered
        ? error
        : withNote(error, leftLockNote(context, now() + policy.leaseMs, now(), 'S3 did not answer the write'));
    }
    // A rival wrote it first (S3 refused our conditional write): name it.
    const rival = await readLock(context);
    if (rival) throw new LockedError(lockedMessage(context, rival, policy, now(), me));
    throw new LockedError(
      `${where(context)} is being locked by another run at this moment; run this command again in a few seconds.`,
    );
  }

  const check = async (): Promise<void> => {
    const current = await readLock(context);
    if (current?.record?.token === record.token) return;
    if (current) throw new LockedError(lockedMessage(context, current, policy, now(), me));
    throw new LockedError(
      `The lock of ${where(context)} disappeared while this ${options.command} held it (removed by --force-unlock elsewhere?). ` +
        'Another run may be changing the site; check with `site-gen releases`, then run this command again.',
    );
  };

  let renewing: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setInterval> | undefined;
  let released = false;
  const held: HeldLock = {
    check,
    async release({ quiet = false } = {}) {
      if (released) return undefined;
      released = true;
      clearInterval(timer);
      await renewing;
      try {
        const current = await readLock(context);
        if (current?.record?.token === record.token) await deleteLock(context);
        return undefined;
      } catch (error) {
        // Quiet, the note goes with the error that stopped the run, which says already what S3 answered.
        const why = quiet ? 'removing it failed too' : `removing it failed: ${explainS3Error(error, context)}`;
        const note = leftLockNote(context, writtenBy + policy.leaseMs, now(), why);
        if (!quiet) options.warn(`warning: ${note}`);
        return note;
      }
    },
  };

  // Stores that ignore the conditions let a rival overwrite ours: the last writer wins, and both read it back.
  try {
    await sleep(policy.settleMs);
    await check();
  } catch (error) {
    // Ours may be in the bucket (the read-back failed, S3 going down): removed now if it is, or said how to go on.
    throw withNote(error, await held.release({ quiet: true }));
  }

  timer = setInterval(
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
          writtenBy = now();
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
  return held;
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
  } catch (error) {
    // A run that failed says itself whether its lock is left behind, with how to go on: the next run needs to know.
    throw withNote(error, await lock.release({ quiet: true }));
  } finally {
    if (exitOnSignal) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await lock.release();
  }
}
