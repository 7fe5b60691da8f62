// The one hash of what the tool names by content for itself: cache keys, the build record, a render's reads. Never a
// name or value a visitor sees (file names of the output and CSP hashes keep SHA-256, so the output does not change).
import { createHash, getHashes, type Hash } from 'node:crypto';

/**
 * BLAKE2b where Node's OpenSSL has it: 1.8x SHA-256's speed on a CPU without SHA extensions (a cold 4,000-page build
 * hashes ~180 MB of pages and reads on its main thread). SHA-256 on a build of OpenSSL without it (FIPS).
 */
export const DIGEST = getHashes().includes('blake2b512') ? 'blake2b512' : 'sha256';

/** A digest to feed in parts (`update`), for `shortHex`. */
export function digest(): Hash {
  return createHash(DIGEST);
}

/** 32 hex digits of `data`'s hash, as a string of its own (see shortHex). */
export function digestHex(data: string | Uint8Array): string {
  return shortHex(digest().update(data));
}

/**
 * The first 16 bytes of a digest as 32 hex digits: a new string, where a slice of the whole hex string would keep all
 * of it alive behind it (a build keeps several of these a page).
 */
export function shortHex(made: Hash): string {
  return made.digest().toString('hex', 0, 16);
}
