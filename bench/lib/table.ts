// One table, printed two ways: padded columns for the terminal, GitHub markdown for RESULTS.md.

export interface Table {
  title: string;
  head: string[];
  rows: string[][];
  /** Notes printed under the table. */
  notes?: string[];
}

export function toText(table: Table): string {
  const widths = table.head.map((h, i) => Math.max(h.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  // First column left-aligned (labels), the rest right-aligned (figures).
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [table.title, line(table.head), line(widths.map((w) => '-'.repeat(w))), ...table.rows.map(line), ...(table.notes ?? []).map((n) => `  ${n}`), ''].join('\n');
}

export function toMarkdown(table: Table): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `### ${table.title}`,
    '',
    `| ${table.head.map(esc).join(' | ')} |`,
    `|${table.head.map((_, i) => (i === 0 ? ':--' : '--:')).join('|')}|`,
    ...table.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
    ...(table.notes?.length ? ['', ...table.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}
