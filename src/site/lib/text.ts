// Fills "{name}" placeholders of a content text with values, as a string. No React: behaviours use it in the browser.

/** "{name}" in a content text; shared with text-nodes.ts. */
export const PLACEHOLDER = /\{(\w+)\}/g;

/** "© {year} {company}" + { year: '2025', company: 'X' } -> "© 2025 X". Unknown placeholders are left as they are. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (match, name: string) => (name in values ? String(values[name]) : match));
}
