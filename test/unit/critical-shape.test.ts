// Pages of one template share their critical CSS: what makes two pages the same shape, and what does not.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { criticalCss } from '../../src/pipeline/critical.ts';
import { matchedAttributes, pageShape } from '../../src/pipeline/critical/shape.ts';

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
  assert.is.not(shape(card('A', '/a').replace('class="card"', 'class="card wide"')), base, 'a class');
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

shapes('reads the attribute names of attribute selectors, besides the ones pseudo-classes read', () => {
  const names = matchedAttributes('a[data-state="open"],[ hidden ]{x:y}svg|a[xlink|href]{z:w}');
  for (const name of ['data-state', 'hidden', 'href', 'id', 'class', 'lang', 'dir', 'type'])
    assert.ok(names.has(name), name);
});

shapes.run();
