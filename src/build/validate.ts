// Turns a zod validation failure into one sentence that names the file, the field and what to do.
import type { z } from 'zod';

/** "services[5].bullets" from ["services", 5, "bullets"]. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

/** The first issue of a failed parse, as "<file>: <field> <problem>". */
export function describeIssue(file: string, error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0]!;
  const field = fieldPath([...(prefix ? [prefix] : []), ...issue.path]);
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})` : '';
  return `${file}: ${field ? `${field}: ` : ''}${problemText(issue)}${more}`;
}

function problemText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `is missing; add it (expected ${issue.expected}).`;
  if (issue.code === 'unrecognized_keys') return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling.`;
  const text = issue.message.replace(/^Invalid input: /, '');
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
