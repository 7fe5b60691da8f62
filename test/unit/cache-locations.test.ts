// The cache index's locations in typed arrays: every entry found where it was put, as a Map of arrays would give it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Location, LocationMap } from '../../src/pipeline/cache-locations.ts';

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
  assert.equal([...map], [...expected], 'iterates as a Map would, in the order the keys were set');
  assert.equal([...map.keys()], [...expected.keys()]);
  assert.equal([...map.values()], [...expected.values()]);
  assert.is(map.get('r:missing'), undefined);
  assert.not.ok(map.has('r:missing'));
});

locations('a key set again moves to its new location and keeps its place in the order', () => {
  const map = new LocationMap([
    ['a', ['pack-1.bin', 0, 10]],
    ['b', ['pack-1.bin', 10, 5]],
  ]);
  map.set('a', ['pack-2.bin', 0, 12]);
  assert.equal(map.get('a'), ['pack-2.bin', 0, 12]);
  assert.equal([...map.keys()], ['a', 'b']);
  assert.is(map.size, 2);
  map.clear();
  assert.is(map.size, 0);
  assert.is(map.get('b'), undefined, 'cleared');
  map.set('c', ['pack-3.bin', 7, 1]);
  assert.equal([...map], [['c', ['pack-3.bin', 7, 1]]], 'usable again after clear');
});

locations.run();
