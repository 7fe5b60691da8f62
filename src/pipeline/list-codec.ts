// Long lists of texts and numbers as bytes, written a buffer at a time: no copy of the whole list is ever made.

/** What a list can hold: texts, numbers and lists of them (the stored reads: see PageCache.setReads). */
export type ListItem = string | number | readonly ListItem[];

/** How an encoded list starts: bytes of another form are taken as no list. */
const MAGIC = Buffer.from('site-gen list 1\n');

const TEXT = 0;
const WHOLE = 1;
const NUMBER = 2;
const LIST = 3;

/** Bytes encoded before they are handed on: the one buffer an encoding uses, whatever the list's length. */
const BUFFER_BYTES = 1024 * 1024;

/**
 * Encodes `list` (MAGIC, then the list: a tag byte per item, a text as its UTF-8 length and bytes, a whole number
 * below 2^32 in 4 bytes, any other in 8, a list as its length and items) into one buffer, reused: each time it is
 * full, `write` is given its bytes, which are not kept after `write` returns. `v8.serialize` makes the whole list's
 * bytes at once: 40 MB outside the heap for a 100,003-page build's reads, garbage until the next full collection.
 */
export function encodeList(list: readonly ListItem[], write: (bytes: Uint8Array) => void): void {
  let buffer = Buffer.allocUnsafeSlow(BUFFER_BYTES);
  let at = 0;
  const room = (bytes: number) => {
    if (at + bytes <= buffer.length) return;
    if (at > 0) write(buffer.subarray(0, at));
    at = 0;
    if (bytes > buffer.length) buffer = Buffer.allocUnsafeSlow(bytes);
  };
  const item = (value: ListItem) => {
    if (typeof value === 'string') {
      const length = Buffer.byteLength(value);
      room(5 + length);
      buffer[at] = TEXT;
      buffer.writeUInt32LE(length, at + 1);
      at += 5 + buffer.write(value, at + 5, 'utf8');
    } else if (typeof value === 'number') {
      if (Number.isInteger(value) && value >= 0 && value < 2 ** 32) {
        room(5);
        buffer[at] = WHOLE;
        buffer.writeUInt32LE(value, at + 1);
        at += 5;
      } else {
        room(9);
        buffer[at] = NUMBER;
        buffer.writeDoubleLE(value, at + 1);
        at += 9;
      }
    } else if (Array.isArray(value)) {
      room(5);
      buffer[at] = LIST;
      buffer.writeUInt32LE(value.length, at + 1);
      at += 5;
      for (const each of value as readonly ListItem[]) item(each);
    } else throw new TypeError(`site-gen: a list to encode holds a ${typeof value}; this is a bug.`);
  };
  room(MAGIC.length);
  MAGIC.copy(buffer, at);
  at += MAGIC.length;
  item(list);
  if (at > 0) write(buffer.subarray(0, at));
}

/** The list `encodeList` made of `bytes`; throws when they are of another form or cut short. */
export function decodeList<T extends ListItem>(bytes: Buffer): T[] {
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw new Error('a list of another form');
  let at = MAGIC.length;
  const need = (count: number) => {
    if (at + count > bytes.length) throw new Error('a list cut short');
  };
  const item = (): ListItem => {
    need(1);
    const tag = bytes[at]!;
    at += 1;
    switch (tag) {
      case TEXT: {
        need(4);
        const length = bytes.readUInt32LE(at);
        need(4 + length);
        at += 4 + length;
        return bytes.toString('utf8', at - length, at);
      }
      case WHOLE:
        need(4);
        at += 4;
        return bytes.readUInt32LE(at - 4);
      case NUMBER:
        need(8);
        at += 8;
        return bytes.readDoubleLE(at - 8);
      case LIST: {
        need(4);
        const length = bytes.readUInt32LE(at);
        at += 4;
        const list: ListItem[] = [];
        for (let index = 0; index < length; index++) list.push(item());
        return list;
      }
      default:
        throw new Error('a list of another form');
    }
  };
  const list = item();
  if (!Array.isArray(list) || at !== bytes.length) throw new Error('a list of another form');
  return list as T[];
}
