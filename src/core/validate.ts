// The one wording of a zod validation failure: one sentence that names the file, the field and what to do.
import type { z } from 'zod';

/** "services[5].bullets" from ["services", 5, "bullets"]. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/**
 * A custom message for a wrong value only: a missing one keeps zod's own issue, which `describeIssue` words as
 * "is missing; add it". Use as a schema's `error`: `z.url({ error: unlessMissing('must be an absolute URL') })`.
 */
export function unlessMissing(message: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? undefined : message);
}

export interface IssueOptions {
  /** Field name the issue's path starts from, e.g. "services" for a content collection. */
  prefix?: string;
  /** The value that was parsed: items of a list that have a string `id` are named by it, `services[5] ("service-video")`. */
  data?: unknown;
  /** Separator between the field and the problem: ": " for config files, " " where the messages read on from the field. */
  separator?: string;
}

/** The first issue of a failed parse, as "<file>: <field><separator><problem>", plus how many more there are. */
export function describeIssue(file: string, error: z.ZodError, options: IssueOptions = {}): string {
  const { prefix = '', separator = ': ' } = options;
  const issue = error.issues[0]!;
  let field = prefix;
  let value = options.data;
  for (const key of issue.path) {
    value = (value as Record<PropertyKey, unknown> | undefined)?.[key as never];
    field = fieldPath(field ? [field, key] : [key]);
    const id = (value as { id?: unknown } | null | undefined)?.id;
    if (typeof key === 'number' && typeof id === 'string') field += ` ("${id}")`;
  }
  const more =
    error.issues.length > 1
      ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})`
      : '';
  return `${file}: ${field ? `${field}${separator}` : ''}${problemText(issue, 'data' in options && value === undefined)}${more}`;
}

function problemText(issue: z.core.$ZodIssue, absent: boolean): string {
  const missing = issue.code === 'invalid_type' && (absent || /received undefined/.test(issue.message));
  if (missing) return `is missing; add it (expected ${issue.expected}).`;
  if (issue.code === 'unrecognized_keys')
    return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling.`;
  const text = issue.message.replace(/^Invalid input: /, '');
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
