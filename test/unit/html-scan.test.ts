// The scan of a page's HTML: its fast scan tells the readers what htmlparser2's tokenizer would, and gives way to it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type HtmlReader, scanHtml, scanHtmlByTokenizer } from '../../src/pipeline/html-scan.ts';

/** Every event a reader is told, as text. */
function recorder(): { reader: HtmlReader; events: string[] } {
  const events: string[] = [];
  return {
    events,
    reader: {
      open(name, attributes, selfClosing) {
        const pairs = attributes.names.slice(0, attributes.length).map((key, i) => [key, attributes.values[i]]);
        events.push(`open ${name} ${JSON.stringify(pairs)}${selfClosing ? ' /' : ''}`);
      },
      text: (data) => events.push(`text ${JSON.stringify(data)}`),
      close: (name) => events.push(`close ${name}`),
    },
  };
}

function bothScans(html: string): { fast: string[]; tokenizer: string[]; read: number } {
  const fast = recorder();
  const read = scanHtml(html, [fast.reader]);
  const tokenizer = recorder();
  scanHtmlByTokenizer(html, [tokenizer.reader]);
  return { fast: fast.events, tokenizer: tokenizer.events, read };
}

const scan = suite('scanHtml');

/** What React and markdown-it write: the fast scan reads it to the end. */
const REGULAR = [
  '<header id="top"><nav aria-label="Main"><a href="/">Home</a><a href="/contact/" class="nav-link active">Contact</a></nav></header>',
  '<p>Fees <!-- -->20<!-- -->% &amp; more &lt;b&gt; &copy; &nbsp;</p><p></p><p> </p>',
  '<a href="/search?q=a&amp;page=2&amp;sort" title="&quot;Quoted&quot; &#39;single&#39;">x</a>',
  `<site-island data-island="menu" data-hydrate="idle" data-props='{"items":["a","b"],"x":"&#39;"}'><button type="button" aria-expanded="false">Menu</button></site-island>`,
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12h14"></path><circle cx="12" cy="12" r="3"/></svg><img src="a.png" alt="" width="10"/><br/>',
  '<DIV CLASS="Big" Data-X="1">Upper</DIV><input disabled checked type=checkbox value=on>',
  '<p>a < b and c<3 <- arrows</p><p>trailing text',
  '<script type="application/json">{"a":"</div>","b":"<p>"}</script><style>a>b{color:red}</style><p>after</p>',
  '<title>A &amp; B</title><textarea>x &amp; <b>y</b></textarea><xmp><p>raw</p></xmp>',
  '<a href="/1" href="/2" id="one" ID="two">first of each</a>',
  '<p x = "spaced" y=\'single\' z>values</p><p class="a"b="c">no space</p>',
  '<ul><li>one<li>two</ul><table><tr><td>implied</table>',
  '<a href=/plain/path/>unquoted ends at the space or the tag</a>',
];

/** What only the tokenizer reads as the standard (or htmlparser2) says: the fast scan gives way to it there. */
const IRREGULAR = [
  '<!DOCTYPE html><p>after a doctype</p>',
  '<svg><text><![CDATA[a < b]]></text></svg><p>after CDATA</p>',
  '<p>before<?php echo 1 ?>after</p>',
  '<p a"b="c">quote in a name</p>',
  '<p =x>equals first</p>',
  '<p x=a"b>quote in an unquoted value</p>',
  '<p x="unterminated>',
  '<p>a</>b</ p>c',
  '<p>open comment <!-- never closed',
  '<!-->x-->y<p>z</p>',
  '<!--->x-->y<p>z</p>',
  '<script/><p>self-closing script</p>',
  '<script>if (a) {}</script/><p>x</p></script>',
  '<br / ><p>space before the end</p>',
  '<p>ends with <',
  '<p>ends in a tag <a href="x"',
];

scan('tells what the tokenizer tells, and reads regular HTML to its end', () => {
  for (const html of REGULAR) {
    const { fast, tokenizer, read } = bothScans(html);
    assert.equal(fast, tokenizer, html);
    assert.is(read, html.length, `the fast scan read all of ${html}`);
  }
});

scan('gives way to the tokenizer at what it does not take, telling the same', () => {
  for (const html of IRREGULAR) {
    const { fast, tokenizer, read } = bothScans(html);
    assert.equal(fast, tokenizer, html);
    assert.ok(read < html.length, `the tokenizer read the end of ${html}`);
  }
  // Regular HTML before the odd part is the fast scan's; what follows, the tokenizer's.
  const page = `${REGULAR.join('')}${IRREGULAR[1]}${REGULAR.join('')}`;
  const { fast, tokenizer, read } = bothScans(page);
  assert.equal(fast, tokenizer);
  assert.is(read, page.indexOf('<![CDATA['));
});

scan('decodes attributes and text, keeps the first of a repeated attribute, lower-cases names', () => {
  const { fast } = bothScans(REGULAR[2]! + REGULAR[9]! + REGULAR[5]!);
  assert.ok(fast.includes('open a [["href","/search?q=a&page=2&sort"],["title","\\"Quoted\\" \'single\'"]]'), fast[0]);
  assert.ok(fast.includes('open a [["href","/1"],["id","one"]]'));
  assert.ok(fast.includes('open div [["class","Big"],["data-x","1"]]'));
  assert.ok(fast.includes('open input [["disabled",""],["checked",""],["type","checkbox"],["value","on"]]'));
});

scan('a raw-text element is text to its end tag; comments do not end a run of text', () => {
  const { fast } = bothScans(REGULAR[7]! + REGULAR[1]!);
  assert.equal(fast.slice(0, 3), [
    'open script [["type","application/json"]]',
    'text "{\\"a\\":\\"</div>\\",\\"b\\":\\"<p>\\"}"',
    'close script',
  ]);
  assert.ok(fast.includes('text "Fees 20% & more <b> © \u00a0"'), fast.join('\n'));
});

scan('tells a self-closing tag as such: inside <svg> it has no children', () => {
  const { fast } = bothScans(REGULAR[4]!);
  assert.ok(fast.includes('open circle [["cx","12"],["cy","12"],["r","3"]] /'));
  assert.ok(fast.includes('open path [["d","M5 12h14"]]'));
});

scan.run();
