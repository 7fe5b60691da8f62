// What a CDN must forget after a deploy: every address a visitor can request of each changed page or file, never a hashed asset.
import { INDEX_FILE, pagePathOf } from '../core/http/paths.ts';
import { wasStoredHashed, type Plan } from './plan.ts';

export interface InvalidationPlan {
  /** The paths to send: the addresses of the changed files, or the prefix's wildcard alone. */
  paths: string[];
  /** How many addresses changed, before the wildcard replaced them. */
  addresses: number;
  wildcard: boolean;
}

/** URL paths are encoded as a browser requests them; CloudFront matches invalidation paths against those. */
const encode = (path: string) => encodeURI(path);

/**
 * Every address that serves a file of the output folder: a page under its folder with and without the slash and as
 * index.html (/contact, /contact/, /contact/index.html; the home page as / and /index.html), any other file as is.
 */
export function addressesOf(path: string, prefix: string): string[] {
  const root = `/${prefix}`;
  const page = pagePathOf(path);
  if (page === '/') return [root, `${root}${INDEX_FILE}`].map(encode);
  if (page !== undefined) {
    const folder = root + page.slice(1);
    return [folder, `${folder}/`, `${folder}/${INDEX_FILE}`].map(encode);
  }
  return [encode(root + path)];
}

/** The files whose address now answers differently: uploaded or deleted, hashed assets aside (a new name, never a new body). */
function changedFiles(plan: Plan): string[] {
  const changed = new Set<string>();
  for (const { target } of plan.uploads) {
    // A page's alias (contact) has the page's path (contact/index.html), so both land on one entry.
    if (target.phase !== 'hashed-assets') changed.add(target.path);
  }
  const deleted = new Set(plan.deletes.map((key) => key.slice(plan.prefix.length)));
  for (const path of deleted) {
    if (wasStoredHashed(plan.previous, plan.prefix, plan.prefix + path)) continue;
    // The alias of a deleted page ("contact" beside "contact/index.html") is one of that page's addresses already.
    if (deleted.has(`${path}/${INDEX_FILE}`)) continue;
    changed.add(path);
  }
  return [...changed];
}

/**
 * The paths to invalidate when the files at `paths` (inside the output folder) changed. `addressPrefix` is where
 * visitors find the deploy's prefix: the prefix itself, less the CDN origin's path (cloudfront.ts's addressPrefix).
 */
export function invalidationForPaths(
  paths: Iterable<string>,
  addressPrefix: string,
  maxPaths: number,
): InvalidationPlan {
  const addresses = [...new Set([...paths].flatMap((path) => addressesOf(path, addressPrefix)))].sort();
  if (addresses.length > maxPaths)
    return { paths: [`/${encode(addressPrefix)}*`], addresses: addresses.length, wildcard: true };
  return { paths: addresses, addresses: addresses.length, wildcard: false };
}

/** The paths to invalidate after carrying out `plan`; none when the deploy changed nothing a visitor can request. */
export function invalidationFor(plan: Plan, maxPaths: number, addressPrefix = plan.prefix): InvalidationPlan {
  return invalidationForPaths(changedFiles(plan), addressPrefix, maxPaths);
}
