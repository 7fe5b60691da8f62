// Maps changed files to the build stages they invalidate, from the files each stage read in the last build.
import path from 'node:path';
import type { Stage } from '../pipeline/pipeline.ts';

export type { Stage };

/** What the last build read, stage by stage: absolute paths. */
export interface InputIndex {
  config: string;
  template: string;
  publicDir: string;
  contentDir: string;
  islandsDir: string;
  behavioursDir: string;
  /** The site's server code: routes, pages, components, content and their imports (the `content` stage). */
  site: ReadonlySet<string>;
  /** The stylesheet and every CSS file it imports (the `stylesheet` stage). */
  css: ReadonlySet<string>;
  /** The browser bundle's sources: islands, behaviours, what they import, the runtime (the `bundle` stage). */
  client: ReadonlySet<string>;
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

const SCRIPT = /\.(tsx?|jsx?|mjs|cjs)$/;
/** A Markdown entry, in a collection's folder under content/ (a new or deleted one too; content/README.md is a note). */
const MARKDOWN = /\.md$/;

/**
 * The stages a change to `file` invalidates. `aliases` are other names of the same file (its real path when reached
 * through a symlink): esbuild reports real paths, the CSS compiler the paths it was given.
 * A file no stage read changes nothing, except where its mere presence matters: a content file (the content
 * entry lists content/) or an island or behaviour module (a page may name one whose file did not exist).
 */
export function stagesFor(file: string, index: InputIndex, aliases: string[] = []): Set<Stage> {
  const stages = new Set<Stage>();
  for (const name of [file, ...aliases]) {
    if (name === index.config) stages.add('config');
    if (name === index.template) stages.add('template');
    if (isInside(index.publicDir, name)) stages.add('public');
    if (index.css.has(name)) stages.add('stylesheet');
    if (index.site.has(name)) stages.add('content');
    if (index.client.has(name)) stages.add('bundle');
    if (SCRIPT.test(name) && isInside(index.contentDir, name)) stages.add('content');
    if (MARKDOWN.test(name) && isInside(index.contentDir, path.dirname(name))) stages.add('content');
    if (SCRIPT.test(name) && (isInside(index.islandsDir, name) || isInside(index.behavioursDir, name))) {
      stages.add('content');
      stages.add('bundle');
    }
  }
  return stages;
}

/** The union of the stages each change invalidates. */
export function stagesForAll(changes: Array<{ file: string; aliases?: string[] }>, index: InputIndex): Set<Stage> {
  const stages = new Set<Stage>();
  for (const change of changes) for (const stage of stagesFor(change.file, index, change.aliases)) stages.add(stage);
  return stages;
}

/**
 * Whether the watcher should report a path at all: not dependencies, not version control or tool caches, not an
 * editor's swap or backup file (`.file.swp`, `file~`, `#file#`, `4913`, which Vim writes to test a folder).
 */
export function isWatchable(file: string): boolean {
  const parts = file.split(/[\\/]/);
  if (
    parts.some(
      (part) =>
        part === 'node_modules' || (part.startsWith('.') && part !== '.well-known' && part !== '.' && part !== '..'),
    )
  )
    return false;
  const name = parts[parts.length - 1] ?? '';
  return !/~$|^#.*#$|\.sw[a-p]$|^4913$/.test(name);
}
