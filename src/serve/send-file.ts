// Sends one file of the served folder through a single open descriptor: its length, ETag and bytes all come from the
// file that was opened, so a build that replaces or removes it meanwhile cannot make the answer fail or mix two files.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/** The precompressed siblings a build writes beside text files, by the Content-Encoding they carry. */
const SIBLINGS = { br: '.br', gzip: '.gz' } as const;

export type SiblingEncoding = keyof typeof SIBLINGS;

async function openFile(file: string) {
  try {
    const handle = await open(file, 'r');
    const info = await handle.stat();
    if (info.isFile()) return { handle, info };
    await handle.close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') throw error;
  }
  return undefined;
}

/**
 * Answers with `file` (a path inside `dir`), or its .br/.gz sibling when the request accepts that encoding, using
 * the headers already set on `res` (Content-Type and Cache-Control from the HTTP policy). Resolves to false, having
 * sent nothing, when the file is not there (a build removed it since it was looked up).
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  dir: string,
  file: string,
  accepted: readonly SiblingEncoding[],
): Promise<boolean> {
  const absolute = path.join(dir, file);
  let opened: Awaited<ReturnType<typeof openFile>>;
  let encoding: SiblingEncoding | undefined;
  for (const candidate of [...accepted, undefined]) {
    opened = await openFile(candidate ? absolute + SIBLINGS[candidate] : absolute);
    if (opened) {
      encoding = candidate;
      break;
    }
  }
  if (!opened) return false;
  const { handle, info } = opened;
  // The same ETag sirv gives in dev mode: size and time of the file sent.
  const etag = `W/"${info.size}-${info.mtime.getTime()}"`;
  const headers: Record<string, string | number> = {
    'Content-Length': info.size,
    'Last-Modified': info.mtime.toUTCString(),
    ETag: etag,
  };
  if (encoding) headers['Content-Encoding'] = encoding;
  if (req.headers['if-none-match'] === etag) {
    await handle.close();
    res.writeHead(304, { ETag: etag });
    res.end();
    return true;
  }
  let range: { start: number; end: number } | undefined;
  const asked = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (asked && !encoding) {
    const start = asked[1] ? Number(asked[1]) : 0;
    const end = Math.min(asked[2] ? Number(asked[2]) : info.size - 1, info.size - 1);
    if (start >= info.size || start > end) {
      await handle.close();
      res.writeHead(416, { 'Content-Range': `bytes */${info.size}` });
      res.end();
      return true;
    }
    range = { start, end };
    headers['Content-Range'] = `bytes ${start}-${end}/${info.size}`;
    headers['Content-Length'] = end - start + 1;
    headers['Accept-Ranges'] = 'bytes';
  }
  res.writeHead(range ? 206 : 200, headers);
  if (req.method === 'HEAD' || info.size === 0) {
    await handle.close();
    res.end();
    return true;
  }
  const stream = createReadStream('', { fd: handle, ...range, autoClose: true });
  // A read that fails after the head is sent can only end the connection; a client that hangs up frees the descriptor.
  stream.once('error', () => res.destroy());
  res.once('close', () => stream.destroy());
  stream.pipe(res);
  return true;
}
