import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeList, encodeList, type ListItem } from '../../src/pipeline/list-codec.ts';

/** `list` encoded, its pieces as `encodeList` hands them over (copied: it reuses its buffer). */
function encoded(list: readonly ListItem[]): Buffer[] {
  const pieces: Buffer[] = [];
  encodeList(list, (bytes) => pieces.push(Buffer.from(bytes)));
  return pieces;
}

test('texts, numbers and lists come back as they went in', () => {
  const list: ListItem[] = [
    '',
    'plain',
    'Ré – 東京 🎸',
    0,
    7,
    2 ** 32 - 1,
    2 ** 32,
    -1,
    0.5,
    -0.25,
    [],
    [1, ['a', [2]]],
  ];
  assert.equal(decodeList(Buffer.concat(encoded(list))), list);
});

test('a long list is handed over a buffer at a time; a text longer than the buffer whole', () => {
  const list = Array.from({ length: 60_000 }, (_, i) => `g["c","releases",${i},"title"]\u0001sTitle ${i}`);
  const long = 'x'.repeat(3 * 1024 * 1024);
  const pieces = encoded([...list, long, 'after']);
  assert.ok(pieces.length > 2, `${pieces.length} pieces`);
  assert.ok(
    pieces.every((piece) => piece.length <= long.length + 5),
    'no piece holds more than the buffer or the one item that did not fit it',
  );
  assert.equal(decodeList(Buffer.concat(pieces)), [...list, long, 'after']);
});

test('bytes of another form, or cut short, are no list', () => {
  const bytes = Buffer.concat(encoded(['a', 1, ['b']]));
  assert.throws(() => decodeList(bytes.subarray(0, bytes.length - 1)), /cut short/);
  assert.throws(() => decodeList(Buffer.concat([bytes, Buffer.from([1])])), /another form/);
  assert.throws(() => decodeList(Buffer.from('site-gen list 0\n')), /another form/);
  assert.throws(() => decodeList(Buffer.alloc(0)), /another form/);
});

test('anything but texts, numbers and lists is a bug, said so', () => {
  assert.throws(() => encodeList([{} as unknown as ListItem], () => undefined), /this is a bug/);
});

test.run();
