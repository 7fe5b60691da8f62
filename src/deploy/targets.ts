// Maps the local files to the objects the bucket should hold: key, headers, encoding, and upload phase.
import { isCompressibleType } from '../core/http/compressible.ts';
import { isIndexFile, resolveOutputPath } from '../core/http/paths.ts';
import { createHttpPolicy, type HttpPolicy } from '../core/http/policy.ts';
import { pageAlias } from './headers.ts';
import type { LocalFile } from './local.ts';

/**
 * Upload order, so a visitor never gets a page whose assets are missing: hashed assets, then the other files pages
 * refer to (images, fonts, favicon), then pages, then the error page, then the indexes that announce pages.
 */
export const PHASES = ['hashed-assets', 'files', 'pages', 'error-page', 'indexes'] as const;
export type Phase = (typeof PHASES)[number];

export type Encoding = 'identity' | 'gzip';

export interface Target {
  /** Object key, prefix included. */
  key: string;
  /** The local file's path inside the output folder. */
  path: string;
  absolutePath: string;
  /** Size and hex MD5 of the uncompressed content. */
  size: number;
  md5: string;
  contentType: string;
  cacheControl: string;
  encoding: Encoding;
  phase: Phase;
  /** The extra copy of a page without its /index.html, so /contact answers without a redirect. */
  alias: boolean;
}

export interface TargetOptions {
  /** '' or a prefix ending in '/'. */
  prefix: string;
  gzip: boolean;
  /** Decides hashed / Cache-Control / Content-Type for every file. Default: the policy without the build's list. */
  policy?: HttpPolicy;
}

function phaseOf(path: string, policy: HttpPolicy): Phase {
  if (policy.isHashed(path)) return 'hashed-assets';
  if (path === '404.html') return 'error-page';
  if (isIndexFile(path)) return 'indexes';
  if (path.endsWith('.html')) return 'pages';
  return 'files';
}

/** The objects to store, in upload order (phase, then key). */
export function targetsFor(files: readonly LocalFile[], options: TargetOptions): Target[] {
  const localPaths = new Set(files.map((file) => file.path));
  const targets: Target[] = [];
  const policy = options.policy ?? createHttpPolicy();
  for (const file of files) {
    const { contentType, cacheControl } = policy.fileHeaders(file.path);
    const base = {
      path: file.path,
      absolutePath: file.absolutePath,
      size: file.size,
      md5: file.md5,
      contentType,
      cacheControl,
      encoding: (options.gzip && isCompressibleType(contentType) ? 'gzip' : 'identity') as Encoding,
      phase: phaseOf(file.path, policy),
    };
    targets.push({ ...base, key: options.prefix + file.path, alias: false });
    const alias = pageAlias(file.path);
    // Stored only where serve and watch answer the alias's URL with this page: a real file of that name wins.
    if (alias && resolveOutputPath(localPaths, `/${alias}`) === file.path)
      targets.push({ ...base, key: options.prefix + alias, alias: true });
  }
  return targets.sort(
    (a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}
