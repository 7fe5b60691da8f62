// The cache's keys: the first 32 hex digits of the tool's digest (src/core/digest.ts), cut as a new string.
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DIGEST, digestHex } from '../../src/core/digest.ts';
import { hash } from '../../src/pipeline/page-cache.ts';

const keys = suite('cache keys');

keys('a key is the first 32 hex digits of the digest of its parts, each followed by a NUL', () => {
  const parts = ['site code', new Uint8Array([0, 1, 255]), '/releases/release-0001', ''];
  const h = createHash(DIGEST);
  for (const part of parts) h.update(part).update('\0');
  const key = hash(...parts);
  assert.is(key, h.digest('hex').slice(0, 32));
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.is.not(hash('a', 'b'), hash('ab'), 'the parts are kept apart');
});

keys('the digest is BLAKE2b where Node has it, and one call gives what parts give', () => {
  assert.is(DIGEST, 'blake2b512', "this Node's OpenSSL has BLAKE2b");
  const text = 'a Markdown body, read once'.repeat(10);
  assert.is(digestHex(text), createHash(DIGEST).update(text).digest('hex').slice(0, 32));
  assert.is(digestHex(Buffer.from(text)), digestHex(text), 'bytes and their text hash alike');
});

keys.run();
