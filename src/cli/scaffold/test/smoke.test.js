// Builds the site into a temporary folder, serves it as a static host would, and checks what a visitor gets.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The installed site-gen command, found the way Node finds the package: node_modules/site-gen-ssg.
const cli = fileURLToPath(new URL('bin/site-gen.js', import.meta.resolve('site-gen-ssg/package.json')));

/** Starts `site-gen serve` on a free port; resolves with its URL once it listens (it prints "Serving dist/ at <url>"). */
function serve(out) {
  const server = spawn(process.execPath, [cli, 'serve', '--out', out, '--port', '0'], { cwd: root });
  const url = new Promise((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (chunk) => {
      text += chunk;
      const found = text.match(/ at (http:\/\/\S+)/);
      if (found) resolve(new URL(found[1]));
    });
    server.on('exit', (code) => reject(new Error(`site-gen serve exited with ${code}: ${text}`)));
    setTimeout(() => reject(new Error(`site-gen serve printed no URL within 30 s: ${text}`)), 30_000).unref();
  });
  return { server, url };
}

test("the site builds, and its home page is served with its text, its island and the island's script; its posts too", async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'site-smoke-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  execFileSync(process.execPath, [cli, 'build', '--out', out], { cwd: root, stdio: 'pipe' });
  const { server, url } = serve(out);
  t.after(() => server.kill());
  const base = await url;

  const home = await fetch(base);
  assert.equal(home.status, 200);
  const html = await home.text();
  assert.match(html, /<title>My Site<\/title>/);
  assert.match(html, /<h1>Hello from My Site<\/h1>/);
  assert.match(html, /<site-island data-island="counter"/);
  // The inline capture script imports the page's entry after load, or at the visitor's first input to an island.
  const script = html.match(/<script data-entry="([^"]+)"/)?.[1];
  assert.ok(script, 'the page names its island script');
  assert.equal((await fetch(new URL(script, base))).status, 200);
  assert.equal((await fetch(new URL('no/such/page', base))).status, 404);

  // The posts: an index, a page per Markdown entry, and the photo as AVIF, WebP and JPEG at several widths.
  const posts = await (await fetch(new URL('posts', base))).text();
  assert.match(posts, /<a href="\/posts\/hello-world">Hello, world<\/a>/);
  // A route's title is the page's own: the build adds the site's name after it, once.
  assert.match(posts, /<title>Posts \| My Site<\/title>/);
  const post = await (await fetch(new URL('posts/hello-world', base))).text();
  assert.match(post, /<h2 id="what-markdown-can-do">/);
  const avif = post.match(/<source type="image\/avif" srcset="([^" ]+) /)?.[1];
  assert.ok(avif, 'the post shows the photo with an AVIF source');
  assert.equal((await fetch(new URL(avif, base))).headers.get('content-type'), 'image/avif');
  assert.match(html, /<picture>.*type="image\/webp".*<img [^>]*width="640" height="400"/s);
});
