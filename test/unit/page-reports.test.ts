// A build's page reports, held as columns while it writes and made into objects as the list of them is read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PageReport } from '../../src/pipeline/build.ts';
import { PageReports } from '../../src/pipeline/page-reports.ts';

const pages = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ path: `/p/${i}`, file: `p/${i}/index.html` }));

test('reports come out in the routes order, whatever order pages were written in, each with its set of scripts', () => {
  const reports = new PageReports();
  reports.written(2, { raw: 300, brotli: 30, css: 3, ms: 1.26 }, 1);
  reports.written(0, { raw: 100, brotli: 10, css: 1, ms: 0.04 }, 0);
  reports.written(1, { raw: 200, brotli: 20, css: 2, ms: 12.345 }, 0);
  const none = { raw: 0, brotli: 0, files: 0 };
  const island = { raw: 4000, brotli: 1700, files: 3 };
  const list = reports.reports(pages(3), [none, island]);
  assert.is(list.length, 3);
  const made = [...list];
  assert.equal([...list], made, 'read again, the same reports');
  assert.equal(made, [
    { path: '/p/0', file: 'p/0/index.html', html: { raw: 100, brotli: 10 }, inlineCss: { raw: 1 }, js: none, ms: 0 },
    { path: '/p/1', file: 'p/1/index.html', html: { raw: 200, brotli: 20 }, inlineCss: { raw: 2 }, js: none, ms: 12.3 },
    {
      path: '/p/2',
      file: 'p/2/index.html',
      html: { raw: 300, brotli: 30 },
      inlineCss: { raw: 3 },
      js: island,
      ms: 1.3,
    },
  ]);
  // The same key order as a report always had: `--json` and the build record print them as they are.
  assert.equal(Object.keys(made[0]!), ['path', 'file', 'html', 'inlineCss', 'js', 'ms']);
});

test("a kept page has its last report's figures and scripts, with this build's milliseconds; the last write wins", () => {
  const reports = new PageReports();
  const last: PageReport = {
    path: '/p/0',
    file: 'p/0/index.html',
    html: { raw: 7351, brotli: 2882 },
    inlineCss: { raw: 1410 },
    js: { raw: 4065, brotli: 1767, files: 3 },
    ms: 55.5,
  };
  reports.kept(0, last, 0.26);
  reports.kept(1, { ...last, path: '/p/1', file: 'p/1/index.html', js: { raw: 4065, brotli: 1767, files: 3 } }, 2);
  // Written early with one set of scripts, then again with the final bundle's.
  reports.written(2, { raw: 10, brotli: 5, css: 0, ms: 1 }, 0);
  reports.written(2, { raw: 12, brotli: 6, css: 0, ms: 2 }, 1);
  const made = [
    ...reports.reports(pages(3), [
      { raw: 1, brotli: 1, files: 1 },
      { raw: 2, brotli: 2, files: 1 },
    ]),
  ];
  assert.equal(made[0], { ...last, ms: 0.3 });
  assert.is(made[0]!.js, made[1]!.js, 'equal weights of kept pages are one object');
  assert.equal(made[2]!.html, { raw: 12, brotli: 6 });
  assert.equal(made[2]!.js, { raw: 2, brotli: 2, files: 1 });
});

test('holds thousands of pages past its first columns, and a page never reported is a bug, said as one', () => {
  const reports = new PageReports();
  const count = 5000;
  for (let i = count - 1; i >= 0; i -= 2) reports.written(i, { raw: i, brotli: i >> 1, css: 0, ms: 0 }, 0);
  const none = { raw: 0, brotli: 0, files: 0 };
  assert.throws(() => reports.reports(pages(count), [none]), /p\/0\/index\.html has no report; this is a bug/);
  for (let i = count - 2; i >= 0; i -= 2) reports.written(i, { raw: i, brotli: i >> 1, css: 0, ms: 0 }, 0);
  const made = [...reports.reports(pages(count), [none])];
  assert.is(made.length, count);
  assert.ok(made.every((report, i) => report.html.raw === i && report.html.brotli === i >> 1));
  assert.throws(() => reports.reports(pages(count + 1), [none]), /p\/5000\/index\.html has no report/);
});

test.run();
