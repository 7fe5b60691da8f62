// sendFile closes the file it opened however the answer ends, a client gone before the answer began included.
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendFile } from '../../src/serve/send-file.ts';

/** The files this process has open (Linux: one entry per descriptor). */
const openFiles = (dir: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
    } catch {
      return false; // closed since the listing
    }
  }).length;

test('a client that hung up before the answer began leaves no file open', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-gen-send-file-'));
  const file = path.join(dir, 'page.html');
  await writeFile(file, '<!doctype html><p>'.padEnd(200_000, 'x'));
  const answered: Promise<boolean>[] = [];
  const server = http.createServer((req, res) => {
    // As when the visitor closes the tab while the file is being opened: the response is gone before sendFile writes.
    res.destroy();
    answered.push(sendFile(req, res, file, { 'Content-Type': 'text/html' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    for (let i = 0; i < 5; i += 1) {
      await new Promise<void>((resolve) => {
        const req = http.get({ port, host: '127.0.0.1', path: '/' });
        req.on('error', () => resolve());
        req.on('response', (res) => res.resume().on('end', resolve));
      });
    }
    await Promise.all(answered);
    // Closing a file is asynchronous: give the streams a moment, far less than a garbage collection would take.
    for (let wait = 0; wait < 50 && openFiles(dir) > 0; wait += 1) await new Promise((r) => setTimeout(r, 20));
    assert.is(openFiles(dir), 0, 'every descriptor of the file is closed');
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
