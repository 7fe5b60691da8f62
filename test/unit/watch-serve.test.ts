// `site-gen watch` serving: pages from memory by `serve`'s rules, the error page, the live-reload stream.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PagesOnRequest } from '../../src/pipeline/pages-on-request.ts';
import { describeFailure, errorPage } from '../../src/dev/error-page.tsx';
import { createOutputHandler, withBuildMeta, type ServedBuild } from '../../src/dev/output.ts';
import { resolveOutputPath } from '../../src/core/http/paths.ts';
import { CACHE_REVALIDATE } from '../../src/core/http/policy.ts';
import { createReloadHub, formatEvent } from '../../src/dev/reload.ts';
import { createStaticServer, type StaticServer } from '../../src/serve/server.ts';
import { BundleError, ContentError, describeError, RenderError } from '../../src/core/errors.ts';
import { ErrorScreen } from '../../src/site/components/ErrorScreen.tsx';

const HOME = '<!doctype html><html><head><title>Home</title></head><body><h1>Home</h1></body></html>';
const files = new Map<string, string | Uint8Array>([
  ['index.html', HOME],
  ['contact/index.html', '<html><head></head><body><h1>Contact</h1></body></html>'],
  ['404.html', '<html><head></head><body><h1>Not found</h1></body></html>'],
  ['assets/site-1a2b3c4d.css', 'body{color:red}'],
  ['favicon.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
  ['robots.txt', 'User-agent: *\n'],
]);

const resolve = suite('resolveOutputPath');

resolve('finds pages as site-gen serve does: /, /contact, /contact/, and files by their path', () => {
  assert.is(resolveOutputPath(files, '/'), 'index.html');
  assert.is(resolveOutputPath(files, '/contact'), 'contact/index.html');
  assert.is(resolveOutputPath(files, '/contact/'), 'contact/index.html');
  assert.is(resolveOutputPath(files, '/assets/site-1a2b3c4d.css'), 'assets/site-1a2b3c4d.css');
  assert.is(resolveOutputPath(files, '/404'), '404.html');
});

resolve('finds nothing for unknown paths, and never a file for a path ending in /', () => {
  assert.is(resolveOutputPath(files, '/nope'), undefined);
  assert.is(resolveOutputPath(files, '/robots.txt/'), undefined);
  assert.is(resolveOutputPath(files, '/contact/more'), undefined);
});

resolve('withBuildMeta names the build and the page in the head', () => {
  const html = withBuildMeta(HOME, 'abc.3', 'index.html');
  assert.match(
    html,
    '<meta name="site-gen-build" content="abc.3"><meta name="site-gen-page" content="index.html">\n</head>',
  );
  assert.not.match(withBuildMeta(HOME, 'abc.3'), 'site-gen-page', 'the error page is no output file');
});

resolve.run();

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A raw request: the path goes on the wire as written (a URL would normalise `%2e%2e` away). */
function request(url: string, method = 'GET'): Promise<Reply> {
  const { host, pathname } = /^http:\/\/(?<host>[^/]+)(?<pathname>.*)$/.exec(url)!.groups!;
  const [hostname, port] = host!.split(':');
  return new Promise((done, fail) => {
    const req = http.request({ host: hostname, port: Number(port), path: pathname, method, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', fail);
    req.end();
  });
}

interface ServeContext {
  server: StaticServer;
  url: string;
  served: ServedBuild;
}

const serve = suite<ServeContext>('createOutputHandler');

serve.before(async (context) => {
  context.served = { files, build: 's.1' };
  context.server = createStaticServer({
    dir: process.cwd(),
    port: 0,
    handlers: [createOutputHandler(() => context.served)],
  });
  context.url = (await context.server.listen()).url;
});

serve.after(async (context) => {
  await context.server.close();
});

serve('serves pages with their build and file named, never cached', async (context) => {
  const reply = await request(`${context.url}/contact/`);
  assert.is(reply.status, 200);
  assert.is(reply.headers['content-type'], 'text/html; charset=utf-8');
  assert.is(reply.headers['cache-control'], CACHE_REVALIDATE);
  assert.match(
    reply.text,
    '<meta name="site-gen-build" content="s.1"><meta name="site-gen-page" content="contact/index.html">',
  );
});

serve('serves hashed assets cacheable for good, other files revalidated, each with its type', async (context) => {
  const css = await request(`${context.url}/assets/site-1a2b3c4d.css`);
  assert.is(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.is(css.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.is(css.text, 'body{color:red}');
  const svg = await request(`${context.url}/favicon.svg`);
  assert.is(svg.headers['content-type'], 'image/svg+xml');
  assert.is(svg.headers['cache-control'], CACHE_REVALIDATE);
});

serve('answers unknown paths with 404.html and status 404', async (context) => {
  const reply = await request(`${context.url}/no/such/page`);
  assert.is(reply.status, 404);
  assert.match(reply.text, 'Not found');
  assert.match(reply.text, 'content="404.html"');
});

serve('refuses paths that try to leave the output with 404, as site-gen serve does', async (context) => {
  for (const path of [
    '/../package.json',
    '/%2e%2e/package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/%00index.html',
  ]) {
    const reply = await request(`${context.url}${path}`);
    assert.is(reply.status, 404, path);
    assert.not.match(reply.text, '"name"', `${path} must not leak a file`);
  }
});

serve('answers HEAD with the headers alone', async (context) => {
  const reply = await request(`${context.url}/`, 'HEAD');
  assert.is(reply.status, 200);
  assert.is(reply.text, '');
  assert.ok(Number(reply.headers['content-length']) > HOME.length, 'the length of the page GET would send');
});

serve(
  'while the build is broken, pages and unknown paths get the error page with 500; assets still load',
  async (context) => {
    context.served = { files, build: 's.2', errorPage: '<html><head></head><body>Broken build</body></html>' };
    try {
      for (const path of ['/', '/contact', '/no/such/page']) {
        const reply = await request(`${context.url}${path}`);
        assert.is(reply.status, 500, path);
        assert.match(reply.text, 'Broken build');
        assert.match(reply.text, 'content="s.2"', 'the error page carries the build too');
      }
      assert.is(
        (await request(`${context.url}/assets/site-1a2b3c4d.css`)).status,
        200,
        'the error page is styled by the last stylesheet',
      );
    } finally {
      context.served = { files, build: 's.3' };
    }
  },
);

serve(
  'a page that fails as it is rendered on request gets its error screen with 500; the other pages are served',
  async (context) => {
    const lazy = new PagesOnRequest(
      new Map([['404.html', '<html><head></head><body>Not found</body></html>']]),
      ['index.html', 'contact/index.html'],
      (file) => {
        if (file === 'contact/index.html') throw new RenderError('Could not render /contact: boom');
        return HOME;
      },
    );
    context.served = {
      files: lazy,
      build: 's.4',
      failedPage: (error) => `<html><head></head><body>Failed: ${(error as Error).message}</body></html>`,
    };
    try {
      const contact = await request(`${context.url}/contact`);
      assert.is(contact.status, 500);
      assert.match(contact.text, 'Failed: Could not render /contact: boom');
      const home = await request(`${context.url}/`);
      assert.is(home.status, 200);
      assert.match(home.text, '<h1>Home</h1>');
    } finally {
      context.served = { files, build: 's.3' };
    }
  },
);

serve(
  "a file still being made (a page's image) is waited for, not a 404; a failed one gets the error screen",
  async (context) => {
    const lazy = new PagesOnRequest(
      new Map([['404.html', '<html><head></head><body>Not found</body></html>']]),
      [],
      () => HOME,
    );
    let encoded!: (files: Map<string, Uint8Array>) => void;
    lazy.setLater(['assets/img/a-1.webp'], new Promise((resolve) => (encoded = resolve)));
    lazy.setLater(
      ['assets/img/b-1.avif'],
      Promise.reject(new ContentError('src/b.png: sharp could not read the image')),
    );
    context.served = {
      files: lazy,
      build: 's.5',
      failedPage: (error) => `<html><head></head><body>Failed: ${(error as Error).message}</body></html>`,
    };
    try {
      const asked = request(`${context.url}/assets/img/a-1.webp`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      encoded(new Map([['assets/img/a-1.webp', Buffer.from('RIFF-webp')]]));
      const image = await asked;
      assert.is(image.status, 200);
      assert.is(image.headers['content-type'], 'image/webp');
      assert.is(image.text, 'RIFF-webp');
      const failed = await request(`${context.url}/assets/img/b-1.avif`);
      assert.is(failed.status, 500);
      assert.match(failed.text, 'Failed: src/b.png: sharp could not read the image');
      assert.is((await request(`${context.url}/assets/img/c-1.avif`)).status, 404, 'a file nobody is making is a miss');
    } finally {
      context.served = { files, build: 's.3' };
    }
  },
);

serve.run();

const hub = suite('createReloadHub');

hub('formatEvent writes one text/event-stream event with its data as JSON', () => {
  assert.is(
    formatEvent({ type: 'css', build: 'b.4', href: '/assets/site-x.css' }),
    'event: css\ndata: {"build":"b.4","href":"/assets/site-x.css"}\n\n',
  );
});

hub('greets each page with the current build, forwards events, and ends the streams on close', async () => {
  let build = 'b.1';
  const reload = createReloadHub({ build: () => build });
  const server = createStaticServer({ dir: process.cwd(), port: 0, handlers: [reload.handler] });
  const { url } = await server.listen();
  try {
    const received: string[] = [];
    let ended!: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const connected = new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${url}/__site-gen/events`, { agent: false }, resolve).on('error', reject);
    });
    const res = await connected;
    assert.is(res.headers['content-type'], 'text/event-stream; charset=utf-8');
    res.setEncoding('utf8');
    const arrived = (pattern: string) =>
      new Promise<void>((resolve) => {
        const check = () => received.join('').includes(pattern) && resolve();
        res.on('data', check);
        check();
      });
    res.on('data', (chunk: string) => received.push(chunk));
    res.on('end', () => ended());
    await arrived('event: hello\ndata: {"build":"b.1"}');
    assert.is(reload.size, 1);
    build = 'b.2';
    reload.send({ type: 'reload', build, pages: ['index.html'] });
    await arrived('event: reload\ndata: {"build":"b.2","pages":["index.html"]}');
    reload.close();
    await end;
    assert.is(reload.size, 0);
  } finally {
    reload.close();
    await server.close();
  }
});

hub.run();

const failure = suite('describeFailure and errorPage');
const context = { root: '/project', cache: '/tool/node_modules/.cache/site-gen' };

failure('a mistake site-gen found is shown by its message alone', () => {
  const shown = describeFailure(
    new ContentError('content/services.ts: services[5].bullets must have 5 items.'),
    context,
  );
  assert.equal(shown, { message: 'content/services.ts: services[5].bullets must have 5 items.' });
  assert.equal(
    describeFailure(new BundleError('src/site/Hero.tsx:9:23: Expected identifier'), context).stack,
    undefined,
  );
});

failure('an exception thrown by the site shows its stack in project paths, without React and Node frames', () => {
  const thrown = new Error('Hero is broken');
  thrown.stack = [
    'Error: Hero is broken',
    '    at Hero (/tool/node_modules/.cache/site-gen/src/site/components/Hero.tsx:10:9)',
    '    at renderWithHooks (/tool/node_modules/react-dom/cjs/react-dom-server.node.development.js:5361:19)',
    '    at HomePage (file:///project/src/site/pages/HomePage.tsx:4:3)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  const shown = describeFailure(new RenderError(`Could not render /: ${thrown.message}`, { cause: thrown }), context);
  assert.is(
    shown.message,
    'Could not render /: Hero is broken',
    'the cause is not repeated when the message quotes it',
  );
  assert.is(
    shown.stack,
    'Error: Hero is broken\n    at Hero (src/site/components/Hero.tsx:10:9)\n    at HomePage (src/site/pages/HomePage.tsx:4:3)',
  );
});

failure("names the site's files in project paths when its node_modules is a link to another folder's", () => {
  // Node names a module by its real path: the server bundle in <project>/node_modules/.cache/site-gen, reached through
  // the link, is reported from the folder the link points to.
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-linked-'));
  try {
    const project = join(dir, 'project');
    mkdirSync(join(dir, 'shared/node_modules/.cache/site-gen'), { recursive: true });
    mkdirSync(project);
    symlinkSync(join(dir, 'shared/node_modules'), join(project, 'node_modules'), 'dir');
    const thrown = new Error('Hero is broken');
    thrown.stack = [
      'Error: Hero is broken',
      `    at Hero (file://${join(dir, 'shared/node_modules/.cache/site-gen/src/site/components/Hero.tsx')}:10:9)`,
    ].join('\n');
    const shown = describeFailure(new RenderError('Could not render /: Hero is broken', { cause: thrown }), {
      root: project,
      cache: join(project, 'node_modules/.cache/site-gen'),
    });
    assert.is(shown.stack, 'Error: Hero is broken\n    at Hero (src/site/components/Hero.tsx:10:9)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

failure('a cause the message does not quote is listed after it', () => {
  const shown = describeFailure(
    new RenderError('The site could not be loaded.', { cause: new TypeError('x is not a function') }),
    context,
  );
  assert.is(shown.message, 'The site could not be loaded.\n  caused by: TypeError: x is not a function');
  assert.is(
    shown.message,
    describeError(new RenderError('The site could not be loaded.', { cause: new TypeError('x is not a function') })),
    'printed as the CLI prints it',
  );
});

const template =
  '<!doctype html>\n<html lang="{{lang}}" class="dark" data-base="{{base}}">\n<head>\n<meta charset="utf-8">\n<!--site-gen:head-->\n</head>\n<body>\n<!--site-gen:body-->\n</body>\n</html>\n';

failure(
  'the error page is the site error screen in the site template under a strict CSP, styled, with the reload client',
  () => {
    const html = errorPage(
      { message: 'content/copy.ts: hero.badge is missing.', stack: 'Error: boom\n    at Hero (src/Hero.tsx:1:1)' },
      {
        stylesheet: '/assets/site-1a2b3c4d.css',
        scripts: ['/__site-gen/reload.js'],
        lang: 'en',
        template,
        errorScreen: ErrorScreen,
      },
    );
    const { document } = parseHTML(html);
    assert.is(document.querySelector('h1')?.textContent, 'Unexpected Application Error!');
    assert.match(document.querySelector('.error-message')!.textContent!, 'content/copy.ts: hero.badge is missing.');
    assert.match(document.querySelector('.error-stack')!.textContent!, 'at Hero (src/Hero.tsx:1:1)');
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    assert.match(csp, "script-src 'self';");
    assert.not.match(csp, 'unsafe-inline');
    assert.is(document.querySelectorAll('style, [style]').length, 0, 'no inline style');
    assert.equal(
      [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
      ['/__site-gen/reload.js'],
      'only the external reload client',
    );
    assert.is(document.querySelector('link[rel="stylesheet"]')?.getAttribute('href'), '/assets/site-1a2b3c4d.css');
    assert.is(document.documentElement.getAttribute('class'), 'dark');
  },
);

failure('without a stack the error page has no stack section', () => {
  const { document } = parseHTML(
    errorPage({ message: 'broken' }, { scripts: [], lang: 'en', errorScreen: ErrorScreen }),
  );
  assert.is(document.querySelector('.error-stack'), null);
  assert.is(document.querySelector('link[rel="stylesheet"]'), null, 'no stylesheet when the CSS never compiled');
});

failure(
  "a site without an error screen (or whose screen throws) gets site-gen's neutral one, with none of this site's text",
  () => {
    const Throws = () => {
      throw new Error('the screen itself is broken');
    };
    for (const errorScreen of [undefined, Throws]) {
      const { document } = parseHTML(
        errorPage({ message: 'content/copy.ts: hero.badge is missing.' }, { scripts: [], lang: 'en', errorScreen }),
      );
      assert.is(document.querySelector('h1')?.textContent, 'Error');
      assert.match(document.querySelector('main code')!.textContent!, 'hero.badge is missing');
      assert.not.match(document.documentElement.outerHTML, 'Unexpected Application Error!');
      assert.is(document.documentElement.getAttribute('lang'), 'en');
    }
  },
);

failure.run();
