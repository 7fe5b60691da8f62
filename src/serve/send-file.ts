// Sends one file of the served folder as a static host does: its precompressed sibling when the client accepts it,
// ETag and 304, a single byte range, HEAD without a body. Which file answers a URL is resolveOutputPath()'s to say.
import { createReadStream, type Stats } from 'node:fs';
import { pipeline } from 'node:stream';
import { type FileHandle, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'];

/** The precompressed encodings a request accepts, best first. Honours q-values, so `br;q=0` means no brotli. */
export function acceptedEncodings(header: string | string[] | undefined): Encoding[] {
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [token = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!token) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(token, Number.isFinite(weight) ? weight : 0);
  }
  const wildcard = weights.get('*') ?? 0;
  return ENCODINGS.map((encoding) => encoding.name).filter((name) => (weights.get(name) ?? wildcard) > 0);
}

interface Variant {
  /** The file opened: its length, ETag and bytes all come from it, whatever a build does to the name meanwhile. */
  handle: FileHandle;
  info: Stats;
  encoding?: Encoding;
}

async function openFile(file: string): Promise<{ handle: FileHandle; info: Stats } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  const info = await handle.stat().catch(() => undefined);
  if (info?.isFile()) return { handle, info };
  await handle.close();
  return undefined;
}

/**
 * The file to send for `file`: its best sibling (`.br`, `.gz`) the request accepts, else the file itself, opened.
 * Opened once rather than looked at (stat) and then opened by name: a build that replaces the file in between
 * would pair one file's length with another's bytes, or fail the answer.
 */
async function variantOf(file: string, accepted: readonly Encoding[]): Promise<Variant | undefined> {
  const variants = [...ENCODINGS.filter((e) => accepted.includes(e.name)), { name: undefined, extension: '' }];
  for (const { name, extension } of variants) {
    const opened = await openFile(file + extension);
    if (opened) return { ...opened, encoding: name };
  }
  return undefined;
}

/** Whether the client's copy (If-None-Match) is the one it would get: a list, weak or strong, or `*`. */
function isFresh(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** The one range of `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size`; 'unsatisfiable'; or none (send it all). */
function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // several ranges, or none: the whole file
  const [first, last] = [match[1]!, match[2]!];
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? 'unsatisfiable' : { start, end };
}

/**
 * Sends `file` (absolute, already resolved and judged safe) with `headers` (its type, caching and security headers)
 * and `status`; resolves to false, sending nothing, when neither it nor an accepted sibling is a file. Ranges and 304s
 * apply only to a 200 answer.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  headers: Record<string, string>,
  status = 200,
): Promise<boolean> {
  const variant = await variantOf(file, acceptedEncodings(req.headers['accept-encoding']));
  if (!variant) return false;
  const { size, mtime } = variant.info;
  const etag = `W/"${size}-${mtime.getTime()}${variant.encoding ? `-${variant.encoding}` : ''}"`;
  const common = {
    ...headers,
    Vary: 'Accept-Encoding',
    ETag: etag,
    'Last-Modified': mtime.toUTCString(),
    ...(variant.encoding ? { 'Content-Encoding': variant.encoding } : {}),
  };
  if (status === 200 && isFresh(req, etag)) {
    await variant.handle.close();
    res.writeHead(304, common);
    res.end();
    return true;
  }
  const range = status === 200 ? byteRange(req.headers.range, size) : undefined;
  if (range === 'unsatisfiable') {
    await variant.handle.close();
    res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` });
    res.end();
    return true;
  }
  const [start, end] = range ? [range.start, range.end] : [0, size - 1];
  res.writeHead(range ? 206 : status, {
    ...common,
    'Accept-Ranges': 'bytes',
    'Content-Length': String(end - start + 1),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || size === 0) {
    await variant.handle.close();
    res.end();
    return true;
  }
  // Read from the descriptor opened above, so a rebuild that replaces or deletes the file since cannot cut the answer.
  // pipeline() closes the file however the answer ends: a read error ends the response rather than the process, and a
  // client that hung up, even before the file was opened (its 'close' already past), closes the file at once.
  const stream = createReadStream('', { fd: variant.handle, start, end, autoClose: true });
  pipeline(stream, res, () => undefined);
  return true;
}
