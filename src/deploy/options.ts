// The options of a deploy, resolved from command-line flags over the `deploy` section of site.config.ts.
import { isAbsolute, resolve } from 'node:path';
import type { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SiteConfig } from '../core/config.ts';
import { DEFAULT_OUT } from '../core/defaults.ts';
import { UsageError } from '../core/errors.ts';
import type { WaitPolicy } from './cloudfront.ts';
import type { LockPolicy } from './lock.ts';
import type { GitInfo } from './releases.ts';
import { DEFAULT_MAX_PATHS, DISTRIBUTION_ID, MAX_PATHS_LIMIT } from '../core/cloudfront-limits.ts';
import type { Output } from './progress.ts';
import type { RetryPolicy } from './retry.ts';

export interface DeployOptions {
  /** Absolute path of the built site. */
  outDir: string;
  bucket: string;
  /** '' or a key prefix ending in '/'. */
  prefix: string;
  region?: string;
  endpoint?: string;
  dryRun: boolean;
  maxDeletes: number;
  concurrency: number;
  gzip: boolean;
  configureWebsite: boolean;
  /** For tests and embedding: a ready client (else one is made from region and endpoint). */
  client?: S3Client;
  /** Where progress and the summary go; default process.stdout. */
  output?: Output;
  retry?: RetryPolicy;
  /** The CloudFront distribution to invalidate after the S3 part, if any. */
  cloudfront?: CloudFrontOptions;
  /** Releases kept for `site-gen rollback`, the live one always among them; default DEFAULTS.keepReleases. */
  keepReleases?: number;
  /** Remove another run's lock before taking it (--force-unlock). */
  forceUnlock?: boolean;
  /** The lock's lease and settle time; default DEFAULT_LOCK. */
  lock?: LockPolicy;
  /** Release the lock and exit on Ctrl-C or SIGTERM (the CLI); a library caller handles signals itself. */
  exitOnSignal?: boolean;
  /** The commit and branch recorded with the release; default gitInfo() of the working folder, null for none. */
  git?: GitInfo | null;
  /** The command printed to undo the release (rollbackCommand()); default `site-gen rollback`. */
  undo?: string;
}

export interface CloudFrontOptions {
  distribution: string;
  endpoint?: string;
  /** More changed paths than this are invalidated as one wildcard. */
  maxPaths: number;
  /** Wait for the invalidation to complete. */
  wait: boolean;
  /** For tests and embedding: a ready client. */
  client?: CloudFrontClient;
  waitPolicy?: WaitPolicy;
}

/** The flags as commander hands them over: strings, booleans, or absent. */
export interface DeployFlags {
  bucket?: string;
  out?: string;
  prefix?: string;
  region?: string;
  endpoint?: string;
  dryRun?: boolean;
  maxDeletes?: string;
  concurrency?: string;
  gzip?: boolean;
  configureWebsite?: boolean;
  cloudfrontDistribution?: string;
  cloudfrontEndpoint?: string;
  cloudfrontMaxPaths?: string;
  wait?: boolean;
  keepReleases?: string;
  forceUnlock?: boolean;
}

/** The deploy section of site.config.ts (keepReleases optional, for configs built by hand as in tests and embedding). */
export type DeployConfig = Omit<SiteConfig['deploy'], 'keepReleases'> & { keepReleases?: number };

export const DEFAULTS = {
  out: DEFAULT_OUT,
  maxDeletes: 256,
  concurrency: 8,
  cloudfrontMaxPaths: DEFAULT_MAX_PATHS,
  // As deploy.keepReleases in src/core/config-schema.ts; here without zod, which --help must not load.
  keepReleases: 5,
} as const;

/** 'a//b/' -> 'a/b/', '/' -> '': keys never start with a slash, and a prefix is a folder. */
export function normalizePrefix(prefix: string): string {
  const parts = prefix.split('/').filter((part) => part !== '');
  return parts.length === 0 ? '' : `${parts.join('/')}/`;
}

export function integer(flag: string, value: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
    throw new UsageError(`${flag} ${value} is not valid: give a whole number from ${min} to ${max}.`);
  }
  return number;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function httpUrl(flag: string, value: string): string {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`${flag} "${value}" is not an http(s) URL; give one such as https://s3.example.com.`);
  }
  return value;
}

export function resolveCloudFront(flags: DeployFlags, config: DeployConfig | undefined): CloudFrontOptions | undefined {
  const distribution = flags.cloudfrontDistribution ?? config?.cloudfront?.distribution;
  if (!distribution) {
    const orphan = flags.wait
      ? '--wait'
      : flags.cloudfrontEndpoint
        ? '--cloudfront-endpoint'
        : flags.cloudfrontMaxPaths
          ? '--cloudfront-max-paths'
          : undefined;
    if (orphan) {
      throw new UsageError(
        `${orphan} needs a CloudFront distribution: pass --cloudfront-distribution <id>, or set deploy.cloudfront.distribution in site.config.ts.`,
      );
    }
    return undefined;
  }
  if (!DISTRIBUTION_ID.test(distribution)) {
    const source = flags.cloudfrontDistribution
      ? '--cloudfront-distribution'
      : 'deploy.cloudfront.distribution in site.config.ts';
    throw new UsageError(
      `${source} "${distribution}" is not a CloudFront distribution ID: copy the ID (such as E2QWRUHAPOMQZL) from the CloudFront console.`,
    );
  }
  return {
    distribution,
    endpoint:
      flags.cloudfrontEndpoint === undefined ? undefined : httpUrl('--cloudfront-endpoint', flags.cloudfrontEndpoint),
    maxPaths:
      flags.cloudfrontMaxPaths !== undefined
        ? integer('--cloudfront-max-paths', flags.cloudfrontMaxPaths, 1, MAX_PATHS_LIMIT)
        : (config?.cloudfront?.maxPaths ?? DEFAULTS.cloudfrontMaxPaths),
    wait: flags.wait ?? false,
  };
}

/** Where the site lives, for every command that reaches the bucket: deploy, releases and rollback. */
export interface BucketOptions {
  bucket: string;
  prefix: string;
  region?: string;
  endpoint?: string;
}

/** What each command does with the bucket, for the message when none is given. */
const BUCKET_USE = { deploy: 'deploy to', rollback: 'roll back', releases: 'list the releases of' } as const;

export function resolveBucketOptions(
  flags: DeployFlags,
  config: DeployConfig | undefined,
  command: keyof typeof BUCKET_USE = 'deploy',
): BucketOptions {
  const bucket = flags.bucket ?? config?.bucket;
  if (!bucket) {
    throw new UsageError(
      `No bucket to ${BUCKET_USE[command]}: pass --bucket <name>, or set deploy.bucket in site.config.ts.`,
    );
  }
  if (!BUCKET_NAME.test(bucket)) {
    const source = flags.bucket ? '--bucket' : 'deploy.bucket in site.config.ts';
    throw new UsageError(
      `${source} "${bucket}" is not an S3 bucket name: use 3 to 63 lowercase letters, digits, dots and hyphens.`,
    );
  }
  const endpoint = flags.endpoint ?? config?.endpoint;
  if (endpoint !== undefined) httpUrl('--endpoint', endpoint);
  return {
    bucket,
    prefix: normalizePrefix(flags.prefix ?? config?.prefix ?? ''),
    region: flags.region ?? config?.region,
    endpoint,
  };
}

/** The flags that say where a site is (and which CDN serves it): a rollback needs the same ones as its deploy. */
const TARGET_FLAGS = [
  ['--bucket', 'bucket'],
  ['--prefix', 'prefix'],
  ['--region', 'region'],
  ['--endpoint', 'endpoint'],
  ['--cloudfront-distribution', 'cloudfrontDistribution'],
  ['--cloudfront-endpoint', 'cloudfrontEndpoint'],
] as const;

/** A value as a POSIX shell reads it back: bare when it is safe so, else in single quotes. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that undoes a deploy, to print after it: `site-gen rollback` with the target flags the deploy was given
 * (and its --config when not the default), so it works as printed. Never credentials: those are not flags.
 */
export function rollbackCommand(flags: DeployFlags, configFile?: string): string {
  const words = ['site-gen', 'rollback'];
  if (configFile !== undefined) words.push('--config', shellWord(configFile));
  for (const [flag, name] of TARGET_FLAGS) {
    const value = flags[name];
    if (value !== undefined) words.push(flag, shellWord(value));
  }
  return words.join(' ');
}

/** --keep-releases over deploy.keepReleases. */
export function resolveKeepReleases(flags: DeployFlags, config: DeployConfig | undefined): number {
  return flags.keepReleases !== undefined
    ? integer('--keep-releases', flags.keepReleases, 1, 1000)
    : (config?.keepReleases ?? DEFAULTS.keepReleases);
}

export function resolveDeployOptions(flags: DeployFlags, config: DeployConfig | undefined, cwd: string): DeployOptions {
  const out = flags.out ?? DEFAULTS.out;
  return {
    outDir: isAbsolute(out) ? out : resolve(cwd, out),
    ...resolveBucketOptions(flags, config),
    dryRun: flags.dryRun ?? false,
    maxDeletes:
      flags.maxDeletes !== undefined
        ? integer('--max-deletes', flags.maxDeletes, 0, Number.MAX_SAFE_INTEGER)
        : (config?.maxDeletes ?? DEFAULTS.maxDeletes),
    concurrency:
      flags.concurrency !== undefined
        ? integer('--concurrency', flags.concurrency, 1, 64)
        : (config?.concurrency ?? DEFAULTS.concurrency),
    gzip: flags.gzip ?? config?.gzip ?? false,
    configureWebsite: flags.configureWebsite ?? false,
    cloudfront: resolveCloudFront(flags, config),
    keepReleases: resolveKeepReleases(flags, config),
    forceUnlock: flags.forceUnlock ?? false,
  };
}
