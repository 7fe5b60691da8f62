// The cache index's locations in typed arrays, keys held as their digests: every entry found where it was put, as a
// Map of arrays would give it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { keyDigest, type Location, LocationMap } from '../../src/pipeline/cache-locations.ts';

const locations = suite('cache locations');

locations('finds every location it was given, past many growths, with offsets beyond 4 GB', () => {
  const map = new LocationMap();
  const expected = new Map<string, Location>();
  for (let i = 0; i < 5000; i++) {
    const at: Location = [`pack-${i % 3}.bin`, i * 1_000_003 + 2 ** 33, 100 + i];
    map.set(`r:${i}`, at);
    expected.set(`r:${i}`, at);
  }
  assert.is(map.size, 5000);
  for (const [key, at] of expected) assert.equal(map.get(key), at, `${key} is where it was put`);
  const digests = [...expected.keys()].map(keyDigest).map((digest) => new Uint8Array(digest));
  assert.equal(
    [...map].map(([digest, at]) => [digest, at]),
    [...expected.values()].map((at, i) => [digests[i], at]),
    'iterates as a Map would, in the order the keys were set',
  );
  assert.equal([...map.keys()], digests);
  assert.equal([...map.values()], [...expected.values()]);
  assert.is(map.get('r:missing'), undefined);
  assert.not.ok(map.has('r:missing'));
  for (const digest of map.keys()) assert.ok(map.has(digest), 'found by its digest as by its key');
});

locations('a key set again moves to its new location and keeps its place in the order', () => {
  const map = new LocationMap([
    ['a', ['pack-1.bin', 0, 10]],
    ['b', ['pack-1.bin', 10, 5]],
  ]);
  map.set('a', ['pack-2.bin', 0, 12]);
  assert.equal(map.get('a'), ['pack-2.bin', 0, 12]);
  assert.equal(
    [...map.keys()],
    ['a', 'b'].map(keyDigest).map((digest) => new Uint8Array(digest)),
  );
  assert.is(map.size, 2);
  map.clear();
  assert.is(map.size, 0);
  assert.is(map.get('b'), undefined, 'cleared');
  map.set('c', ['pack-3.bin', 7, 1]);
  assert.equal([...map.values()], [['pack-3.bin', 7, 1]], 'usable again after clear');
  assert.equal(map.packs(), new Set(['pack-3.bin']), 'only the packs of entries in it');
});

locations('a key deleted is gone, counted out, and comes back when set again, at its first place', () => {
  const map = new LocationMap();
  for (const key of ['a', 'b', 'c']) map.set(key, [`pack-${key}.bin`, 1, 2]);
  assert.ok(map.delete('b'));
  assert.not.ok(map.delete('b'), 'once');
  assert.not.ok(map.has('b'));
  assert.is(map.get('b'), undefined);
  assert.is(map.size, 2);
  assert.equal(
    [...map.values()].map(([pack]) => pack),
    ['pack-a.bin', 'pack-c.bin'],
  );
  assert.equal(
    map.bytesByPack(),
    new Map([
      ['pack-a.bin', 2],
      ['pack-c.bin', 2],
    ]),
    'a deleted entry weighs nothing',
  );
  map.set('b', ['pack-d.bin', 3, 4]);
  assert.is(map.size, 3);
  assert.equal(
    [...map.values()].map(([pack]) => pack),
    ['pack-a.bin', 'pack-d.bin', 'pack-c.bin'],
  );
  assert.throws(() => map.get(new Uint8Array(8)), /a key digest of 8 bytes/);
});

locations('keys that share their first bytes are told apart, however full the table', () => {
  const map = new LocationMap();
  // Digests alike in their first word land in one run of the table: each is still found by the whole digest.
  const digests = Array.from({ length: 3000 }, (_, i) => {
    const digest = new Uint8Array(16);
    digest[15] = i & 0xff;
    digest[14] = i >> 8;
    return digest;
  });
  digests.forEach((digest, i) => map.set(digest, ['pack-x.bin', i, 1]));
  assert.is(map.size, 3000);
  assert.ok(digests.every((digest, i) => map.get(digest)?.[1] === i));
});

locations.run();
