import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { writeFileSync } from 'node:fs';
const url = process.argv[2];
const chrome = await launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'], logLevel: 'silent' });
const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
await chrome.kill();
const lhr = result.lhr;
const a = lhr.audits;
const m = a.metrics.details.items[0];
console.log(url, 'perf', lhr.categories.performance.score, 'FCP', Math.round(a['first-contentful-paint'].numericValue), 'LCP', Math.round(a['largest-contentful-paint'].numericValue), 'TBT', Math.round(a['total-blocking-time'].numericValue), 'CLS', a['cumulative-layout-shift'].numericValue, 'bench', lhr.environment.benchmarkIndex);
console.log('observed FCP', m.observedFirstContentfulPaint, 'LCP', m.observedLargestContentfulPaint, 'load', m.observedLoad, 'DCL', m.observedDomContentLoaded);
for (const r of a['network-requests'].details.items) console.log(String(Math.round(r.rendererStartTime)).padStart(5), String(Math.round(r.networkEndTime)).padStart(5), r.priority.padEnd(8), r.resourceType.padEnd(10), r.transferSize, r.url.replace(/^http:\/\/[^/]+/, ''));
const lcpEl = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
console.log('LCP element', lcpEl);
for (const id of ['lcp-phases', 'largest-contentful-paint-element']) { const d = a[id]?.details; if (d?.items?.[1]) console.log(JSON.stringify(d.items[1]).slice(0, 600)); }
if (process.argv[3]) writeFileSync(process.argv[3], JSON.stringify(lhr));
