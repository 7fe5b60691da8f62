// The errors site-gen shows to its users. Names never change once users may see them.

export class SiteGenError extends Error {
  override name = 'SiteGenError';
  /** The process exit code the CLI ends with for this error; 1 unless a subclass means something more precise. */
  readonly exitCode: number = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A command-line flag or argument is wrong. */
export class UsageError extends SiteGenError {
  override name = 'UsageError';
}

/** site.config.ts is missing, does not load, or has an invalid field. */
export class ConfigError extends SiteGenError {
  override name = 'ConfigError';
}

/** A file in content/ is missing, does not load, or has an invalid field. */
export class ContentError extends SiteGenError {
  override name = 'ContentError';
}

/** src/site/routes.tsx is missing, or a route in it is not a route. */
export class RoutesError extends SiteGenError {
  override name = 'RoutesError';
}

/** The document template (templates/document.html) is missing or lacks a marker. */
export class TemplateError extends SiteGenError {
  override name = 'TemplateError';
}

/** A page could not be rendered to HTML. */
export class RenderError extends SiteGenError {
  override name = 'RenderError';
}

/** A page uses an island that has no module in src/site/islands/, or passes it props that are not data. */
export class IslandError extends SiteGenError {
  override name = 'IslandError';
}

/** The stylesheet could not be compiled. */
export class CssError extends SiteGenError {
  override name = 'CssError';
}

/** esbuild could not bundle the site's code. */
export class BundleError extends SiteGenError {
  override name = 'BundleError';
}

/** An internal link or #anchor points at nothing. */
export class BrokenLinkError extends SiteGenError {
  override name = 'BrokenLinkError';
}

/** A page is heavier than its budget. */
export class BudgetExceededError extends SiteGenError {
  override name = 'BudgetExceededError';
}

/** The output folder could not be written. */
export class WriteError extends SiteGenError {
  override name = 'WriteError';
}

/** A deploy to S3 failed. */
export class DeployError extends SiteGenError {
  override name = 'DeployError';
}

/** Exit code of a deploy that reached S3 but could not invalidate the CDN: the site is half deployed. */
export const EXIT_CDN_NOT_INVALIDATED = 3;

/** The files are deployed to S3, but the CDN in front was not invalidated (or not confirmed to be): it may serve old pages. */
export class CdnError extends DeployError {
  override name = 'CdnError';
  override readonly exitCode = EXIT_CDN_NOT_INVALIDATED;
}

/** Exit code of a deploy or rollback refused because another one holds the bucket's lock: nothing was changed. */
export const EXIT_LOCKED = 4;

/** Another deploy or rollback holds the lock of the bucket and prefix: this one changed nothing. */
export class LockedError extends DeployError {
  override name = 'LockedError';
  override readonly exitCode = EXIT_LOCKED;
}

/**
 * The one way an error chain is printed (the CLI and the dev server's error page): the error's message, then each
 * cause's that it does not already quote ("Could not render /: boom" needs no "caused by: boom"). Errors of
 * site-gen's own show their message alone, others their name too; `debug` adds each stack.
 */
export function describeError(error: unknown, debug = false): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth += 1) {
    const text =
      current instanceof SiteGenError
        ? current.message
        : current instanceof Error
          ? `${current.name}: ${current.message}`
          : String(current);
    const quoted = current instanceof Error ? current.message : text;
    if (!lines.some((line) => line.includes(quoted))) lines.push(depth === 0 ? text : `  caused by: ${text}`);
    if (debug && current instanceof Error && current.stack) lines.push(current.stack.split('\n').slice(1).join('\n'));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}
