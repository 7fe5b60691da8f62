// bench/RESULTS.md is written by more than one bench: each owns a section between markers and keeps the others'.

const markers = (name: string) => [`<!-- ${name}: written by its bench, do not edit -->`, `<!-- /${name} -->`] as const;

/** `markdown` with the section `name` replaced by `body` (appended when it has none). */
export function replaceSection(markdown: string, name: string, body: string): string {
  const [open, close] = markers(name);
  const section = `${open}\n${body.trimEnd()}\n${close}\n`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start === -1 || end === -1) return `${markdown.trimEnd()}\n\n${section}`;
  return markdown.slice(0, start) + section + markdown.slice(end + close.length).replace(/^\n/, '');
}

/** The sections of `previous` that `next` lacks, appended to it: a bench that rewrites the file keeps the others'. */
export function keepSections(previous: string, next: string): string {
  let out = next;
  for (const match of previous.matchAll(/<!-- ([\w-]+): written by its bench, do not edit -->\n([\s\S]*?)<!-- \/\1 -->/g)) {
    if (!out.includes(markers(match[1]!)[0])) out = replaceSection(out, match[1]!, match[2]!);
  }
  return out;
}
