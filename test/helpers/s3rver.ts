// Starts a real S3 API (s3rver) on 127.0.0.1 with a free port and a temporary directory, for deploy tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import type { DeployOptions } from '../../src/deploy/options.ts';

interface S3rverOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}
interface S3rverInstance {
  httpServer?: Server;
  run(): Promise<{ port: number; address: string }>;
  close(): Promise<void>;
}

// s3rver is CommonJS without type declarations.
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverOptions) => S3rverInstance;

/** The credentials s3rver accepts; tests pass them explicitly or through a child's environment. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** index.html as index document, 404.html as error document, as on a real S3 website bucket. */
export const WEBSITE_XML = `<?xml version="1.0" encoding="UTF-8"?>
<WebsiteConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <IndexDocument><Suffix>index.html</Suffix></IndexDocument>
  <ErrorDocument><Key>404.html</Key></ErrorDocument>
</WebsiteConfiguration>`;

export interface BucketSetup {
  name: string;
  /** Give the bucket the website configuration above. */
  website?: boolean;
}

export interface StartOptions {
  buckets?: BucketSetup[];
  /** Reuse a directory (and its buckets), e.g. to restart a stopped server. Default: a new temporary one. */
  directory?: string;
  /** Default: a free port chosen by the OS. */
  port?: number;
}

export interface S3rverHandle {
  /** http://127.0.0.1:PORT, for the S3 client's endpoint. */
  endpoint: string;
  port: number;
  directory: string;
  /** A client with s3rver's credentials, path-style, no retries of its own. */
  client(): S3Client;
  /** Stops the server and drops open keep-alive connections, so in-flight and later requests fail. */
  stop(): Promise<void>;
  /** Stops the server (if running) and deletes its directory. */
  dispose(): Promise<void>;
}

export async function startS3rver(options: StartOptions = {}): Promise<S3rverHandle> {
  const ownsDirectory = !options.directory;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'site-gen-s3rver-')));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: (options.buckets ?? []).map((bucket) => ({
      name: bucket.name,
      configs: bucket.website ? [WEBSITE_XML] : [],
    })),
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  let running = true;
  const clients: S3Client[] = [];

  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  };

  return {
    endpoint,
    port: address.port,
    directory,
    client() {
      // Quiet the SDK's notice that its future releases need Node 22 (as src/deploy/client.ts does).
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
        maxAttempts: 1,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      clients.push(client);
      return client;
    },
    stop,
    async dispose() {
      await stop();
      for (const client of clients) client.destroy();
      if (ownsDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A deploy of `out` to `bucket` through `client` as the tests run it: no prefix, no dry run, four requests at a time,
 * retries a few milliseconds apart, a short lock settle time, no git commit recorded; what it prints goes to `write`. `extra` overrides any of it.
 */
export function testDeployOptions(
  client: S3Client,
  bucket: string,
  out: string,
  write: (chunk: string) => void,
  extra: Partial<DeployOptions> = {},
): DeployOptions {
  return {
    outDir: out,
    bucket,
    prefix: '',
    dryRun: false,
    maxDeletes: 256,
    concurrency: 4,
    gzip: false,
    configureWebsite: false,
    client,
    output: { write },
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    // One process, one server: a rival's write lands within milliseconds, so the read-back need not wait long.
    lock: { leaseMs: 60_000, settleMs: 20 },
    git: null,
    ...extra,
  };
}
