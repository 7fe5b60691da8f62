// Checks on the built site that fail the build: links and anchors that point nowhere, pages over budget.
import { BrokenLinkError, BudgetExceededError } from '../core/errors.ts';

export interface LinkedPage {
  /** Route path, "/contact". */
  path: string;
  links: string[];
  ids: string[];
}

export interface BrokenLink {
  page: string;
  href: string;
  reason: string;
  /** The file the link is written in, when it is not the page's own code (a Markdown entry). */
  source?: string;
}

/** Paths of everything else the site serves: public/ files, assets. */
export type KnownFiles = Pick<ReadonlySet<string>, 'has'>;

/** A page a link may lead to: its path, and the ids on it (read only for a link with a #hash). */
export interface LinkTarget {
  path: string;
  readonly ids: string[];
}

/** The pages links may lead to, by path as links name them (see `linkPath`). */
export type LinkTargets = Pick<ReadonlyMap<string, LinkTarget>, 'get'>;

/** The pages as links find them: "/contact", "/contact/" and "/contact/index.html" name one page. */
export function linkTargets<T extends LinkTarget>(pages: Iterable<T>): Map<string, T> {
  const byPath = new Map<string, T>();
  for (const page of pages) byPath.set(linkPath(page.path), page);
  return byPath;
}

/**
 * Finds every internal link or #anchor on the pages that points at no page, file or id. `targets`: the pages links
 * may lead to, when they are more than `pages` (the dev server checks the page it serves against every route).
 */
export function findBrokenLinks(
  pages: Iterable<LinkedPage>,
  files: KnownFiles,
  base = '/',
  targets: LinkTargets = linkTargets(pages),
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  // A link from the site's root ("/contact", the header's and footer's) means the same on every page: checked once.
  const fromRoot = new Map<string, string | null>();
  for (const page of pages) {
    for (const href of page.links) {
      const shared = href.startsWith('/') && !href.startsWith('//');
      let reason = shared ? fromRoot.get(href) : undefined;
      if (reason === undefined) {
        reason = checkLink(href, page, targets, files, base);
        if (shared) fromRoot.set(href, reason);
      }
      if (reason) broken.push({ page: page.path, href, reason });
    }
  }
  return broken;
}

function checkLink(href: string, page: LinkedPage, pages: LinkTargets, files: KnownFiles, base: string): string | null {
  if (href === '' || href === '#') return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return null; // https:, mailto:, tel: ...
  const url = new URL(href, `http://site${base}${page.path.replace(/^\//, '')}`);
  const hash = decodeURIComponent(url.hash.slice(1));
  let path = decodeURIComponent(url.pathname);
  if (!path.startsWith(base)) return `it is outside the site's base ${base}`;
  path = `/${path.slice(base.length)}`;
  const target = pages.get(linkPath(path));
  if (!target) {
    if (files.has(path.replace(/^\//, '')))
      return hash ? `"${path}" is a file, not a page, so it has no #${hash}` : null;
    return `no page or file is served at ${path}`;
  }
  if (hash && !target.ids.includes(hash)) return `${target.path} has no element with id "${hash}"`;
  return null;
}

/** A page's path as links name it: "/contact", "/contact/" and "/contact/index.html" are "/contact". */
export function linkPath(path: string): string {
  const trimmed = path.replace(/\/index\.html$/, '/').replace(/\.html$/, '');
  return trimmed.length > 1 ? trimmed.replace(/\/$/, '') : trimmed;
}

export function assertNoBrokenLinks(broken: BrokenLink[]): void {
  if (broken.length === 0) return;
  const lines = broken
    .slice(0, 10)
    .map((b) => `  ${b.page}: link "${b.href}"${b.source ? ` in ${b.source}` : ''}: ${b.reason}`);
  const more = broken.length > 10 ? `\n  ... and ${broken.length - 10} more` : '';
  throw new BrokenLinkError(
    `${broken.length} broken link${broken.length > 1 ? 's' : ''}; fix the href in content/ or the page, or add the missing id:\n${lines.join('\n')}${more}`,
  );
}

export interface PageWeight {
  path: string;
  /** HTML document with its inline CSS, brotli bytes. */
  htmlBrotli: number;
  /** JavaScript the page loads without interaction, brotli bytes. */
  jsBrotli: number;
}

export interface Budgets {
  html: number;
  js: number;
}

export function findOverBudget(pages: Iterable<PageWeight>, budgets: Budgets): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    if (page.htmlBrotli > budgets.html) {
      problems.push(
        `${page.path}: HTML + inline CSS is ${kb(page.htmlBrotli)} brotli, over the ${kb(budgets.html)} budget (build.budgets.html)`,
      );
    }
    if (page.jsBrotli > budgets.js) {
      problems.push(
        `${page.path}: JavaScript is ${kb(page.jsBrotli)} brotli, over the ${kb(budgets.js)} budget (build.budgets.js)`,
      );
    }
  }
  return problems;
}

export function assertWithinBudget(pages: Iterable<PageWeight>, budgets: Budgets): void {
  const problems = findOverBudget(pages, budgets);
  if (problems.length === 0) return;
  throw new BudgetExceededError(
    `${problems.length === 1 ? 'A page is' : 'Pages are'} over budget:\n  ${problems.join('\n  ')}\nMake the page lighter, or raise the budget in site.config.ts (build.budgets, bytes after brotli).`,
  );
}

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
