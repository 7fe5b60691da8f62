// Pages of one template share their critical CSS: what makes two pages the same shape, and what does not.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { criticalCss } from '../../src/pipeline/critical.ts';
import { matchedAttributes, pageShape, shapeReader } from '../../src/pipeline/critical/shape.ts';
import { scanHtml } from '../../src/pipeline/html-scan.ts';
import { collectLinks, linkReader } from '../../src/pipeline/render.tsx';

const css = '.card{color:red}.card h2{margin:0}[aria-expanded="true"]{outline:1px solid}p:empty{display:none}';
const attributes = matchedAttributes(css);
const card = (title: string, href: string, extra = '') =>
  `<article class="card"${extra}><h2>${title}</h2><a href="${href}">more</a><p>${title} text</p></article>`;
const shape = (html: string) => pageShape(html, attributes);

const shapes = suite('pageShape');

shapes('pages that differ only in text, links and unmatched attribute values have one shape', () => {
  assert.is(shape(card('Night Drive', '/releases/1')), shape(card('Echo River 2', '/releases/2')));
  assert.is(shape(card('A', '/a', ' aria-label="One"')), shape(card('B', '/b', ' aria-label="Two"')));
});

shapes('classes, ids, elements, attributes the selectors read and empty text make another shape', () => {
  const base = shape(card('A', '/a'));
  assert.is.not(shape(card('A', '/a').replace('class="card"', 'class="wide"')), base, 'a class');
  assert.is.not(shape(card('A', '/a', ' id="x"')), base, 'an id');
  assert.is.not(shape(card('A', '/a').replace('<h2>', '<h3>').replace('</h2>', '</h3>')), base, 'an element');
  assert.is.not(
    shape(card('A', '/a', ' aria-expanded="true"')),
    shape(card('A', '/a', ' aria-expanded="false"')),
    'an attribute a selector reads',
  );
  assert.is.not(shape('<p></p>'), shape('<p>text</p>'), ':empty');
});

shapes('pages of one shape get the critical CSS each would get on its own', () => {
  const one = card('Night Drive', '/releases/1');
  const two = card('Echo River 2', '/releases/2');
  assert.is(shape(one), shape(two));
  assert.is(criticalCss(css, one), criticalCss(css, two));
});

shapes(
  'ids and classes the stylesheet never names leave the shape as it is: a Markdown heading id is not a new shape',
  () => {
    const entry = (id: string, classes: string) => `<article class="${classes}"><h2 id="${id}">Title</h2></article>`;
    assert.is(shape(entry('the-harbour-of-signal', 'card')), shape(entry('list-of-engine', 'card')), 'an id');
    assert.is(shape(entry('a', 'card')), shape(entry('a', 'card post-17')), 'a class no selector names');
    assert.is.not(shape(entry('a', 'card')), shape(entry('a', 'post-17')), 'a class a selector names');
    const named = matchedAttributes('#menu{color:red}');
    assert.is.not(
      pageShape(entry('menu', ''), named),
      pageShape(entry('other', ''), named),
      'an id a selector names is part of the shape',
    );
    const byAttribute = matchedAttributes('[id^="fn"]{color:red}[class~="x"]{color:blue}');
    assert.is.not(
      pageShape(entry('fn1', ''), byAttribute),
      pageShape(entry('a', ''), byAttribute),
      '[id] reads every id',
    );
    assert.is.not(
      pageShape(entry('a', 'y'), byAttribute),
      pageShape(entry('a', 'z'), byAttribute),
      '[class] every class',
    );
  },
);

shapes('an escaped class in the stylesheet is the class in the page', () => {
  const named = matchedAttributes('.md\\:flex{display:flex}.\\31 0{x:y}');
  assert.ok(named.has('.md:flex') && named.has('.10'), [...named].join(' '));
  const page = (classes: string) => `<div class="${classes}"></div>`;
  assert.is.not(pageShape(page('md:flex'), named), pageShape(page(''), named));
  assert.is.not(pageShape(page('10'), named), pageShape(page(''), named));
});

shapes('pages whose ids differ get the critical CSS each would get on its own', () => {
  const sheet = '#menu{color:red}h2{margin:0}.card{padding:0}';
  const named = matchedAttributes(sheet);
  const one = '<article class="card"><h2 id="intro">A</h2></article>';
  const two = '<article class="card"><h2 id="summary">B</h2></article>';
  assert.is(pageShape(one, named), pageShape(two, named));
  assert.is(criticalCss(sheet, one), criticalCss(sheet, two));
});

shapes('reads the attribute names of attribute selectors, besides the ones pseudo-classes read', () => {
  const names = matchedAttributes('a[data-state="open"],[ hidden ]{x:y}svg|a[xlink|href]{z:w}');
  for (const name of ['data-state', 'hidden', 'href', 'lang', 'dir', 'type']) assert.ok(names.has(name), name);
});

shapes('one parse read by the links and the shape gives what each reads alone', () => {
  // Implied closes, void elements, an <area>, blank and empty text, ids matched and not: every event both readers get.
  const html = `<header id="top"><nav><a href="/">Home</a><a href="#menu" class="card md:flex">Menu</a></nav></header>
    <main><p>one<p> <p></p><ul><li id="a">x<li>y</ul><img src="a.png" alt=""><map><area href="/map"></map>
    <button aria-expanded="true" type="button">Open</button>${card('Title', '/releases/one/')}</main>`;
  const links = linkReader();
  const shaped = shapeReader(attributes);
  scanHtml(html, [links.reader, shaped.reader]);
  assert.equal(links.found, collectLinks(html), 'the same links and ids');
  assert.equal(links.found.links, ['/', '#menu', '/map', '/releases/one/']);
  assert.is(shaped.shape(), shape(html), 'the same shape');
  assert.is.not(shape(html), shape(html.replace('<p></p>', '<p>x</p>')), 'a reader that reads text still gets it');
});

shapes.run();
