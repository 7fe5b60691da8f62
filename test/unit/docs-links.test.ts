// Every relative link and #anchor in README.md and docs/*.md resolves: the file exists, and an anchor names a heading
// of the target (by GitHub's slugs) or an explicit id. Markdown is parsed by markdown-it, so links inside code are not
// links and reference-style links are resolved as a reader's renderer would.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import MarkdownIt, { type Token } from 'markdown-it';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const repo = resolve('.');

/**
 * Pages other branches are writing while this one links them. A link to one of these passes only while the page is
 * missing; once it exists it is checked like any other. Empty this list once those branches are merged: the last test
 * fails while it names a page that exists.
 */
export const PAGES_NOT_YET_MERGED: string[] = [];

const markdown = new MarkdownIt({ html: true });

/** The Markdown files whose links are checked, relative to the repository with "/". */
export function docFiles(root = repo): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`)
    : [];
  return ['README.md', ...docs.sort()];
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped (not "-" or "_"), each space a "-". */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text a reader sees in an inline token: code spans without their backticks, markup dropped. */
function plainText(inline: Token): string {
  return (inline.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/** Every anchor a Markdown text defines: its headings' slugs (repeats get -1, -2 as on GitHub) and HTML ids. */
export function anchorsOf(source: string): Set<string> {
  const tokens = markdown.parse(source, {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') {
      const base = slug(plainText(tokens[index + 1]!));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    const html = [token, ...(token.children ?? [])].filter((t) => t.type === 'html_block' || t.type === 'html_inline');
    for (const fragment of html) {
      for (const m of fragment.content.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    }
  });
  return anchors;
}

export interface Link {
  /** The link as written. */
  href: string;
  /** Line in the source, from 1. */
  line: number;
}

/** Every link and image a Markdown text holds, as markdown-it reads it (not the ones inside code). */
export function linksOf(source: string): Link[] {
  const links: Link[] = [];
  let line = 1;
  for (const block of markdown.parse(source, {})) {
    // Table cells carry no line of their own: the row's, or the last block's before them, is theirs.
    if (block.map) line = block.map[0] + 1;
    for (const token of block.children ?? []) {
      const href =
        token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
      if (href !== null) links.push({ href: String(href), line });
    }
  }
  return links;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * What is wrong with each relative link of the given files, as "file:line: link: why" (none when all resolve).
 * `pending` are repository paths a link may name while they do not exist.
 */
export function brokenLinks(files: string[], root = repo, pending: readonly string[] = []): string[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(join(root, file), 'utf8'));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  const problems: string[] = [];
  for (const file of files) {
    for (const { href, line } of linksOf(readFileSync(join(root, file), 'utf8'))) {
      if (EXTERNAL.test(href)) continue;
      const where = `${file}:${line}: ${href}`;
      const hash = href.indexOf('#');
      const path = decodeURI(hash === -1 ? href : href.slice(0, hash));
      const anchor = hash === -1 ? null : decodeURIComponent(href.slice(hash + 1));
      if (path.startsWith('/')) {
        problems.push(`${where}: an absolute path; link relative to ${file} instead`);
        continue;
      }
      const target =
        path === ''
          ? file
          : normalize(join(dirname(file), path))
              .replaceAll('\\', '/')
              .replace(/\/$/, '');
      if (target.startsWith('..')) {
        problems.push(`${where}: points outside the repository`);
        continue;
      }
      if (!existsSync(join(root, target))) {
        if (!pending.includes(target)) problems.push(`${where}: ${target} does not exist`);
        continue;
      }
      if (anchor === null) continue;
      if (statSync(join(root, target)).isDirectory() || !target.endsWith('.md')) {
        problems.push(`${where}: an anchor into ${target}, which is not a Markdown file whose headings can be checked`);
      } else if (!anchorsIn(target).has(anchor)) {
        problems.push(`${where}: ${target} has no heading or id "${anchor}"`);
      }
    }
  }
  return problems;
}

const links = suite('docs links');

links('makes the anchors GitHub makes for headings', () => {
  assert.is(slug('site-gen build'), 'site-gen-build');
  assert.is(slug('Configuration: site.config.ts'), 'configuration-siteconfigts');
  assert.is(
    slug('Islands: what loads when, and what the runtime guarantees'),
    'islands-what-loads-when-and-what-the-runtime-guarantees',
  );
  assert.equal(
    [...anchorsOf('# `site-gen build`\n\n## Tests\n\n### Tests\n\n<a id="flags"></a>\n')].sort(),
    ['flags', 'site-gen-build', 'tests', 'tests-1'],
    'code spans lose their backticks, a repeated heading gets -1, an HTML id counts',
  );
});

links('reads links as Markdown does: not inside code, reference links resolved, lines counted', () => {
  const source =
    'See [a](a.md#x) and ![b](img/b.png).\n\n```\n[not](a-link.md)\n```\n\n`[nor](this.md)` [c][ref]\n\n| t |\n| - |\n| [d](d.md) |\n\n[ref]: c.md\n';
  assert.equal(
    linksOf(source).map((link) => `${link.line} ${link.href}`),
    ['1 a.md#x', '1 img/b.png', '7 c.md', '11 d.md'],
  );
});

links('names each broken link with its file, line and what is wrong', () => {
  const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
  try {
    mkdirSync(join(root, 'docs'));
    writeFileSync(
      join(root, 'docs', 'guide.md'),
      '# Guide\n\n## Islands: what loads when\n\n[back](../README.md#readme)\n',
    );
    writeFileSync(join(root, 'data.json'), '{}');
    writeFileSync(
      join(root, 'README.md'),
      [
        '[fine](docs/guide.md#islands-what-loads-when) [fine too](#readme) [web](https://example.com/x.md)',
        '# Readme',
        '[gone](docs/nowhere.md) [pending](docs/later.md)',
        '[no heading](docs/guide.md#islands) [no file anchors](data.json#name) [absolute](/docs/guide.md)',
        '',
      ].join('\n\n'),
    );
    assert.equal(brokenLinks(docFiles(root), root, ['docs/later.md']), [
      'README.md:5: docs/nowhere.md: docs/nowhere.md does not exist',
      'README.md:7: docs/guide.md#islands: docs/guide.md has no heading or id "islands"',
      'README.md:7: data.json#name: an anchor into data.json, which is not a Markdown file whose headings can be checked',
      'README.md:7: /docs/guide.md: an absolute path; link relative to README.md instead',
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

links('every relative link and #anchor in README.md and docs/*.md resolves', () => {
  const problems = brokenLinks(docFiles(), repo, PAGES_NOT_YET_MERGED);
  assert.equal(problems, [], `broken links (fix the link, or the heading it names):\n${problems.join('\n')}`);
});

links('PAGES_NOT_YET_MERGED names only pages that do not exist yet', () => {
  const merged = PAGES_NOT_YET_MERGED.filter((page) => existsSync(join(repo, page)));
  assert.equal(
    merged,
    [],
    `these pages exist now: remove them from PAGES_NOT_YET_MERGED in ${relative(repo, import.meta.filename)}`,
  );
});

links.run();
