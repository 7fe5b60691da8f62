// The cache's keys: the first 32 hex digits of a SHA-256, the same whichever way the digits are cut from the digest.
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hash } from '../../src/pipeline/page-cache.ts';

const keys = suite('cache keys');

keys('a key is the first 32 hex digits of the SHA-256 of its parts, each followed by a NUL', () => {
  const parts = ['site code', new Uint8Array([0, 1, 255]), '/releases/release-0001', ''];
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  const key = hash(...parts);
  assert.is(key, h.digest('hex').slice(0, 32), 'the keys of caches written by earlier builds still match');
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.is.not(hash('a', 'b'), hash('ab'), 'the parts are kept apart');
});

keys.run();
