// The one rule for the URL base a site is built for: "/" or a path of plain segments, always ending with "/".
import { UsageError } from './errors.ts';

/** "/", "/my-site" and "/my-site/" are bases ("/my-site/" for the last two); anything else is a UsageError naming --base. */
export function normaliseBase(base = '/'): string {
  const withSlash = base.endsWith('/') ? base : `${base}/`;
  if (!/^\/([\w.~-]+\/)*$/.test(withSlash)) {
    throw new UsageError(`--base ${base} is not a URL path. Use "/" or a path such as "/my-site/".`);
  }
  return withSlash;
}
