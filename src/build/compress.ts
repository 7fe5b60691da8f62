// Brotli and gzip, at the settings the build writes and measures with (deterministic output).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export function brotli(data: Uint8Array | string): Buffer {
  return brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength },
  });
}

export function gzip(data: Uint8Array | string): Buffer {
  return gzipSync(data, { level: 9 });
}

export function byteLength(data: Uint8Array | string): number {
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

const TEXT = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest|map|ico)$/;

/** Text files over 1 KB get .br and .gz siblings. */
export function shouldPrecompress(path: string, size: number): boolean {
  return TEXT.test(path) && size > 1024;
}
