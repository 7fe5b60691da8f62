// Does the hand-written selector matching in src/pipeline/critical/match.ts pay? Times, per page, the three ways to
// answer "which of the stylesheet's selectors match this page" on the real site's pages and stylesheet:
//   hand-written: PageMatcher (htmlparser2 document, right-to-left matching of plain selectors, css-select for the rest);
//   linkedom only: document.querySelector() for every selector (css-select compiles each one on every call);
//   css-select compiled: each selector compiled once per stylesheet, run on htmlparser2's DOM of each page.
// Writes its section of bench/RESULTS.md. Run: npm run bench:critical [-- rounds]
import { compile, selectOne } from 'css-select';
import { parseDocument } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { parse } from 'postcss';
import { compileStylesheet } from '../../src/pipeline/css.ts';
import { PageMatcher } from '../../src/pipeline/critical/match.ts';
import { splitTopLevel, stripDynamic } from '../../src/pipeline/critical/selectors.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { Pipeline } from '../../src/pipeline/pipeline.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { currentLoad } from '../lib/machine.ts';
import { replaceSection } from '../lib/results-section.ts';

const ROUNDS = Number(process.argv[2] ?? 20);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || process.argv.length > 3) {
  process.stderr.write(
    `bench:critical takes one argument, the number of rounds (a whole number from 1; default 20), not "${process.argv.slice(2).join(' ')}". Run: npm run bench:critical -- 10\n`,
  );
  process.exit(1);
}
const VARIANTS = [['dark'], ['light']];
const paths = projectPaths('site.config.ts');
const run = await new Pipeline({ paths, base: '/', mode: 'build' }).run();
if (!run.ok) throw run.error;
const { css } = await compileStylesheet({
  entry: paths.stylesheet,
  browserslist: run.output.config.build.browserslist,
});
const queries = new Set<string>();
parse(css).walkRules((rule) => {
  if (
    rule.parent?.type === 'rule' ||
    (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as { name: string }).name))
  )
    return;
  for (const selector of splitTopLevel(rule.selector, ',')) queries.add(stripDynamic(selector));
});
const all = [...queries];
const wrap = (html: string) => `<!doctype html><html><head></head><body>${html}</body></html>`;

/** Every selector's answer in each root-class state, with `matches` asked in turn of <html> carrying the state's classes. */
function answers(setClass: (names: string) => void, matches: (query: string) => boolean): Set<string> {
  const found = new Set<string>();
  for (const state of ['', ...VARIANTS.map((v) => v.join(' '))]) {
    setClass(state);
    for (const query of all) {
      if (found.has(query)) continue;
      let hit: boolean;
      try {
        hit = matches(query);
      } catch {
        hit = true; // cannot evaluate: kept, as the build does
      }
      if (hit) found.add(query);
    }
  }
  return found;
}

const ways = {
  'hand-written (PageMatcher)': (html: string) => {
    const matcher = new PageMatcher(html, VARIANTS);
    matcher.evaluate(all);
    return new Set(all.filter((query) => matcher.matches(query)));
  },
  'linkedom querySelector only': (html: string) => {
    const { document } = parseHTML(wrap(html));
    return answers(
      (names) => document.documentElement.setAttribute('class', names),
      (query) => document.querySelector(query) !== null,
    );
  },
  'css-select compiled once': (() => {
    const compiled = new Map<string, ReturnType<typeof compile> | null>();
    for (const query of all) {
      try {
        compiled.set(query, compile(query));
      } catch {
        compiled.set(query, null);
      }
    }
    return (html: string) => {
      const document = parseDocument(wrap(html));
      const root = document.children.find((node) => (node as { name?: string }).name === 'html') as {
        attribs: Record<string, string>;
      };
      return answers(
        (names) => (root.attribs.class = names),
        (query) => {
          const test = compiled.get(query);
          if (!test) throw new Error('not compiled');
          return selectOne(test, document) !== null;
        },
      );
    };
  })(),
};

const lines = [
  `${all.length} selectors of the site's stylesheet, its ${run.output.pages.length} pages, ${ROUNDS} rounds; load ${currentLoad()} at the start.`,
  '',
  '| way | per page | selectors answered differently from the hand-written way (per page) |',
  '|:--|--:|:--|',
];
console.log(lines[0]);
const reference = run.output.pages.map((page) => ways['hand-written (PageMatcher)'](run.output.render(page).html));
for (const [name, way] of Object.entries(ways)) {
  const started = performance.now();
  let results: Array<Set<string>> = [];
  for (let round = 0; round < ROUNDS; round += 1)
    results = run.output.pages.map((page) => way(run.output.render(page).html));
  const perPage = (performance.now() - started) / ROUNDS / run.output.pages.length;
  const disagree = results.map(
    (set, i) => [...new Set([...set, ...reference[i]!])].filter((q) => set.has(q) !== reference[i]!.has(q)).length,
  );
  console.log(
    `${name.padEnd(30)} ${perPage.toFixed(2)} ms per page; selectors answered differently from the hand-written way: ${disagree.join(', ')}`,
  );
  lines.push(`| ${name} | ${perPage.toFixed(2)} ms | ${disagree.join(', ')} |`);
}
lines.push(
  '',
  `Load ${currentLoad()} at the end. Every way includes parsing the page; the build then does this once per page shape (critical/shape.ts), not once per page.`,
);
const resultsFile = join(import.meta.dirname, '../RESULTS.md');
await writeFile(
  resultsFile,
  replaceSection(
    await readFile(resultsFile, 'utf8'),
    'critical-matching',
    `## Critical CSS: selector matching (\`npm run bench:critical\`)\n\n${lines.join('\n')}\n`,
  ),
);
