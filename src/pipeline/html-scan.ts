// One htmlparser2 pass over a page's HTML for every reader of it: its links and ids (render.tsx), its critical-CSS shape (critical/shape.ts).
import { type Handler, Parser } from 'htmlparser2';

/** What reads a page as it is parsed: the parser's callbacks it needs. */
export type HtmlReader = Partial<Pick<Handler, 'onopentag' | 'ontext' | 'onclosetag'>>;

/**
 * Parses `html` once, giving each tag and run of text to every reader in turn: a build reads each page for its links
 * and for its shape, and the parse is most of the cost of either.
 */
export function scanHtml(html: string, readers: readonly HtmlReader[]): void {
  const parser = new Parser(readers.length === 1 ? readers[0] : inTurn(readers));
  parser.end(html);
}

/** One reader that hands every callback to each of `readers`, in their order. */
function inTurn(readers: readonly HtmlReader[]): HtmlReader {
  const open = readers.flatMap((reader) => (reader.onopentag ? [reader.onopentag.bind(reader)] : []));
  const text = readers.flatMap((reader) => (reader.ontext ? [reader.ontext.bind(reader)] : []));
  const close = readers.flatMap((reader) => (reader.onclosetag ? [reader.onclosetag.bind(reader)] : []));
  return {
    onopentag(name, attributes, implied) {
      for (const each of open) each(name, attributes, implied);
    },
    ...(text.length > 0 && {
      ontext(data) {
        for (const each of text) each(data);
      },
    }),
    ...(close.length > 0 && {
      onclosetag(name, implied) {
        for (const each of close) each(name, implied);
      },
    }),
  };
}
