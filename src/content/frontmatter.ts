// Splits a Markdown file into its YAML frontmatter and body, with the line of every frontmatter field for messages.
import { createRequire } from 'node:module';
import type { YAMLException } from 'js-yaml';
import { detachedStrings } from '../core/strings.ts';

type JsYaml = typeof import('js-yaml');
let jsYaml: JsYaml | undefined;

/** js-yaml, which reads the data: loaded when a first file has frontmatter, not by every site-gen command. */
function yamlData(): JsYaml {
  jsYaml ??= createRequire(import.meta.url)('js-yaml') as JsYaml;
  return jsYaml;
}

type YamlPackage = typeof import('yaml');
let yamlPackage: YamlPackage | undefined;

/** `yaml`, whose documents know each node's position: loaded when a message first needs a line (~50 ms to load). */
function yamlDocuments(): YamlPackage {
  yamlPackage ??= createRequire(import.meta.url)('yaml') as YamlPackage;
  return yamlPackage;
}

export interface Frontmatter {
  data: unknown;
  /** The line (1-based) the body starts on. */
  bodyLine: number;
  body: string;
  /** The line (1-based, in the file) of the field at `path`, or of the frontmatter's start when it has none. */
  lineOf(path: ReadonlyArray<PropertyKey>): number;
}

export class FrontmatterError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The frontmatter between a first line "---" and the next "---"; a file without one has `{}` as its data. */
export function splitFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (!open) return { data: {}, bodyLine: 1, body: source, lineOf: () => 1 };
  const close = /^---[ \t]*$/m;
  const rest = source.slice(open[0].length);
  const end = close.exec(rest);
  if (!end) throw new FrontmatterError('the frontmatter starts with "---" on line 1 but has no closing "---" line', 1);
  const yaml = rest.slice(0, end.index);
  const afterClose = rest.slice(end.index + end[0].length).replace(/^\r?\n/, '');
  // js-yaml reads the data (several times faster than \`yaml\` on thousands of entries); \`yaml\`'s document, with each
  // node's position, is made only when a message needs a field's line.
  let data: unknown;
  try {
    const { load, CORE_SCHEMA } = yamlData();
    // The data's strings are slices of the file's text (see detachedStrings): an entry's data stays to the build's end.
    data = detachedStrings(load(yaml, { schema: CORE_SCHEMA }) ?? {});
  } catch (error) {
    const mark = (error as YAMLException).mark;
    // +2: the mark's line counts from 0, and the file's first line is the opening "---".
    throw new FrontmatterError(
      `the frontmatter is not valid YAML (${(error as YAMLException).reason ?? (error as Error).message})`,
      (mark?.line ?? 0) + 2,
    );
  }
  const bodyLine = 1 + yaml.split('\n').length + 1;
  return {
    data,
    bodyLine,
    body: afterClose,
    lineOf(path) {
      const { isNode, LineCounter, parseDocument } = yamlDocuments();
      const counter = new LineCounter();
      const doc = parseDocument(yaml, { lineCounter: counter });
      // The deepest node of the path that exists: a missing field is reported at its parent.
      for (let depth = path.length; depth > 0; depth -= 1) {
        const node = doc.getIn(path.slice(0, depth) as unknown[], true);
        const at = isNode(node) ? node.range?.[0] : undefined;
        if (at !== undefined) return counter.linePos(at).line + 1;
      }
      return 1;
    },
  };
}
