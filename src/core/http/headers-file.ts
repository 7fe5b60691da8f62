// The security headers as a `_headers` file (the format of Netlify and Cloudflare Pages): the build writes it into the
// output folder, `site-gen serve` reads it back, so a preview sends exactly what the host will.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteGenError } from '../errors.ts';

/** Its path inside the output folder. Hosts read it and never serve it; `site-gen deploy` never uploads it. */
export const HEADERS_FILE = '_headers';

/** Every response of the site ("/*"): the one rule the build writes. */
const ALL_PATHS = '/*';

export function serializeHeadersFile(headers: Readonly<Record<string, string>>): string {
  const lines = [
    '# Written by `site-gen build` from the headers section of site.config.ts: every response carries these headers.',
    '# Netlify and Cloudflare Pages read this file; for CloudFront, copy the values into a response headers policy.',
    ALL_PATHS,
    ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The headers of the "/*" rule; `where` names the file in the error a damaged one gets. */
export function parseHeadersFile(text: string, where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let rule: string | undefined;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rule = line.trim();
      continue;
    }
    const match = /^\s+([A-Za-z0-9-]+):\s*(.*?)\s*$/.exec(line);
    if (!match || rule === undefined) {
      throw new SiteGenError(
        `${where}:${index + 1} is not a "  Name: value" line under a path. Run \`site-gen build\` again to rewrite the file.`,
      );
    }
    if (rule === ALL_PATHS) headers[match[1]!] = match[2]!;
  }
  return headers;
}

/** The headers of a build kept in memory (the dev server's), or undefined when it has none. */
export function headersFileOf(files: ReadonlyMap<string, Uint8Array | string>): Record<string, string> | undefined {
  const data = files.get(HEADERS_FILE);
  if (data === undefined) return undefined;
  return parseHeadersFile(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'), HEADERS_FILE);
}

/** The headers dist/_headers gives every response, or undefined when the folder has none (built by an older site-gen). */
export async function readHeadersFile(dir: string): Promise<Record<string, string> | undefined> {
  const file = join(dir, HEADERS_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new SiteGenError(
      `Could not read ${file}: ${error.message}. Check its permissions, or run \`site-gen build\` again.`,
      { cause: error },
    );
  });
  return text === undefined ? undefined : parseHeadersFile(text, file);
}
