import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'css-select';
import { parseHTML } from 'linkedom';
import { parse } from 'postcss';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileStylesheet } from '../../src/pipeline/css.ts';
import { criticalCss, fontsAfterPaint, stripDynamic } from '../../src/pipeline/critical.ts';
import { CssError } from '../../src/core/errors.ts';

const fixtures = fileURLToPath(new URL('../fixtures/css/', import.meta.url));
const siteCss = readFileSync(`${fixtures}critical/site.css`, 'utf8');
const home = readFileSync(`${fixtures}critical/home.html`, 'utf8');
const contact = readFileSync(`${fixtures}critical/contact.html`, 'utf8');

/** Every style rule's selector list in the output, in order (inside at-rules too). */
function selectors(css: string): string[] {
  const found: string[] = [];
  parse(css).walkRules((rule) => {
    if (rule.parent?.type !== 'atrule' || !/keyframes$/.test(rule.parent.name)) found.push(rule.selector);
  });
  return found;
}

/** Every at-rule in the output as `@name params`. */
function atRules(css: string): string[] {
  const found: string[] = [];
  parse(css).walkAtRules((rule) => {
    found.push(`@${rule.name} ${rule.params}`.trim());
  });
  return found;
}

function fontFamilies(css: string): string[] {
  const found: string[] = [];
  parse(css).walkAtRules('font-face', (rule) => rule.walkDecls('font-family', (decl) => void found.push(decl.value)));
  return found;
}

const critical = suite('criticalCss');

critical('keeps the form rules and none of the FAQ rules on a page with the form', () => {
  const css = criticalCss(siteCss, contact);
  const kept = selectors(css);
  for (const selector of [
    '.form',
    '.form__label',
    '.form__input:focus-visible',
    '.form__input::placeholder',
    '.form__spinner',
    '.form__row',
  ]) {
    assert.ok(kept.includes(selector), `${selector} is critical on the contact page; kept: ${kept.join(' | ')}`);
  }
  assert.not.ok(css.includes('faq'), `no FAQ rule on the contact page: ${css}`);
});

critical('keeps the FAQ rules and none of the form rules on a page with the FAQ', () => {
  const css = criticalCss(siteCss, home);
  const kept = selectors(css);
  for (const selector of ['.faq', '.faq__question', '.faq__answer', '.faq__item']) {
    assert.ok(kept.includes(selector), `${selector} is critical on the home page; kept: ${kept.join(' | ')}`);
  }
  assert.not.ok(/\.form\b/.test(css), `no form rule on the home page: ${css}`);
});

critical('keeps only the selectors of a shared list that match the page', () => {
  assert.ok(
    criticalCss(siteCss, home).includes('.faq__question{font-weight:700}'),
    'the form half of ".faq__question,.form__label" is dropped',
  );
  assert.ok(criticalCss(siteCss, contact).includes('.form__label{font-weight:700}'), 'the FAQ half is dropped');
});

critical('keeps rules for states and pseudo-elements of elements on the page', () => {
  const kept = selectors(criticalCss(siteCss, contact));
  for (const selector of [
    '.nav a:hover,.nav a:focus-visible',
    '.button:disabled',
    '.button::after',
    '.form__input:not(:placeholder-shown):invalid',
  ]) {
    assert.ok(kept.includes(selector), `${selector} is kept by the element it styles; kept: ${kept.join(' | ')}`);
  }
  assert.ok(
    selectors(criticalCss(siteCss, home)).includes('.faq__question::-webkit-details-marker'),
    'vendor pseudo-elements too',
  );
});

critical('leaves out rules that only match after JavaScript changes the page', () => {
  const kept = selectors(criticalCss(siteCss, home));
  assert.not.ok(kept.includes('.is-scrolled .site-header'), 'a class added on scroll is not there at first paint');
  assert.not.ok(kept.includes('[data-open] .drawer'), 'nor an attribute set by a script');
  assert.not.ok(kept.includes('.faq__item[open] .faq__answer'), 'nor the styles of a closed <details> once opened');
});

critical('keeps the rules of both themes for an element on the page', () => {
  const fragment = selectors(criticalCss(siteCss, home));
  for (const selector of ['.dark .button', '.light .button', '.dark', '.light']) {
    assert.ok(
      fragment.includes(selector),
      `${selector} is critical: either theme may show before the stylesheet loads`,
    );
  }
  const documentHtml = `<!doctype html><html lang="en" class="dark"><head><title>x</title></head><body>${home}</body></html>`;
  const whole = selectors(criticalCss(siteCss, documentHtml));
  assert.ok(whole.includes('.light .button'), 'the light rule is kept although <html> says dark');
  assert.ok(whole.includes('.dark .button'));
});

critical('matches <html> only as it is when rootClassVariants is empty', () => {
  const documentHtml = `<!doctype html><html class="dark"><body>${home}</body></html>`;
  const kept = selectors(criticalCss(siteCss, documentHtml, { rootClassVariants: [] }));
  assert.ok(kept.includes('.dark .button'));
  assert.not.ok(kept.includes('.light .button'), 'no other theme is tried');
});

critical('uses the class sets given in rootClassVariants', () => {
  const css = '.theme-sepia .x{color:brown}.theme-dark .x{color:#fff}.theme-dark.contrast .x{color:#ff0}';
  const kept = selectors(
    criticalCss(css, '<p class="x">x</p>', { rootClassVariants: [['theme-dark', 'contrast'], ['theme-sepia']] }),
  );
  assert.equal(kept, ['.theme-sepia .x', '.theme-dark .x', '.theme-dark.contrast .x']);
});

critical('recurses into @media, @supports, @layer and @container, and drops the ones left empty', () => {
  const onContact = criticalCss(siteCss, contact);
  assert.ok(
    onContact.includes(
      '@media (min-width: 48rem){.form{grid-template-columns:1fr 1fr}@supports (display: grid){.form__row{display:grid}}}',
    ),
    onContact,
  );
  assert.not.ok(onContact.includes('@container'), 'the @container block holds only FAQ rules');
  assert.not.ok(onContact.includes('@layer components{'), 'the components layer block holds only FAQ rules');

  const onHome = criticalCss(siteCss, home);
  assert.ok(
    onHome.includes('@media (min-width: 48rem){.faq{grid-template-columns:1fr 1fr}}'),
    'the @supports inside is dropped on the home page',
  );
  assert.ok(onHome.includes('@container card (min-width: 20rem){.faq__item{padding:2rem}}'), onHome);
  assert.ok(
    onHome.includes('@layer components{.faq{display:grid}.faq__question::-webkit-details-marker{display:none}}'),
    onHome,
  );
});

critical('keeps @layer statements, which fix the order of the layers', () => {
  assert.ok(criticalCss(siteCss, contact).startsWith('@layer reset, components;'));
  assert.ok(criticalCss('@layer a;.x{color:red}', '<p>no x</p>').startsWith('@layer a;'), 'even when no rule is kept');
});

critical('leaves out @media print and @page', () => {
  const css = criticalCss(`${siteCss}@page{margin:1cm}`, home);
  assert.not.ok(css.includes('print'), css);
  assert.not.ok(css.includes('@page'), css);
});

critical(
  'keeps @font-face only for families that kept rules use, also through custom properties and the font shorthand',
  () => {
    assert.equal(
      fontFamilies(criticalCss(siteCss, home)),
      ['"Anton"', '"Inter Variable"'],
      'Anton via --font-display, Inter Variable via the body font shorthand; not Inter',
    );
    const noTitle = '<main><p>Text only</p></main>';
    assert.equal(
      fontFamilies(criticalCss(siteCss, noTitle)),
      ['"Inter Variable"'],
      'without the display title, Anton is not needed',
    );
    const direct = criticalCss(
      '@font-face{font-family:Anton;src:url(a.woff2)}.t{font-family:Anton,serif}',
      '<h1 class="t">T</h1>',
    );
    assert.equal(fontFamilies(direct), ['Anton'], 'a family named directly in font-family');
  },
);

critical(
  'leaves out a used font-display: swap face, which comes with the full stylesheet after the first paint; keeps its local() fallback',
  () => {
    const css =
      '@font-face{font-family:Body;font-display:swap;src:url(body.woff2)}@font-face{font-family:Body Fallback;src:local(Arial);size-adjust:107%}p{font-family:Body,Body Fallback,sans-serif}';
    assert.equal(
      fontFamilies(criticalCss(css, '<p>Text</p>')),
      ['Body Fallback'],
      'the first paint uses the fallback; the web font is not fetched before it',
    );
    assert.equal(
      fontFamilies(criticalCss(css.replace('swap', 'fallback'), '<p>Text</p>')),
      ['Body', 'Body Fallback'],
      'a face that wants to be in the first paint stays (and is preloaded)',
    );
  },
);

critical(
  'fontsAfterPaint: the swap fonts the critical CSS uses, directly or through var(), for the loader to fetch with the stylesheet',
  () => {
    const css = [
      '@font-face{font-family:Body;font-display:swap;src:url(/body.woff2)format("woff2"),url(/body.woff)format("woff")}',
      '@font-face{font-family:Body Fallback;src:local(Arial)}',
      '@font-face{font-family:"Display";font-display:swap;src:url(/display.woff2)format("woff2")}',
      '@font-face{font-family:Footer;font-display:swap;src:url(/footer.woff2)format("woff2")}',
      '@font-face{font-family:Block;font-display:block;src:url(/block.woff2)format("woff2")}',
      ':root{--body:Body,Body Fallback,sans-serif;--display:"Display",serif;--unused:Footer}',
      'p{font-family:var(--body)}h1{font:700 2rem/1 var(--display)}footer p{font-family:Footer,serif}',
    ].join('');
    const page = criticalCss(css, '<h1>Title</h1><p>Text</p>');
    assert.equal(
      fontsAfterPaint(css, page),
      ['/body.woff2', '/display.woff2'],
      'Body through var(), Display through the font shorthand; the woff fallback URL is not fetched',
    );
    const footer = criticalCss(css, '<footer><p>Small print</p></footer>');
    assert.equal(
      fontsAfterPaint(css, footer),
      ['/body.woff2', '/footer.woff2'],
      'Footer named directly in font-family (a custom property that is never read does not count)',
    );
    assert.equal(
      fontsAfterPaint(css, criticalCss(css, '<div>Unstyled</div>')),
      [],
      'no text the critical CSS sets in a swap family',
    );
    assert.equal(
      fontsAfterPaint(css.replace(/swap/g, 'block'), page),
      [],
      'a face that is not swap is in the critical CSS and preloaded instead',
    );
  },
);

critical('keeps @keyframes only when a kept rule animates with them, directly or through a custom property', () => {
  const onContact = atRules(criticalCss(siteCss, contact));
  assert.ok(onContact.includes('@keyframes spin'), `spin is used through var(--spin): ${onContact.join(' | ')}`);
  assert.not.ok(onContact.includes('@keyframes accordion-open'));
  assert.not.ok(atRules(criticalCss(siteCss, home)).includes('@keyframes spin'), 'no spinner on the home page');

  const open = home.replace('<details class="faq__item">', '<details class="faq__item" open>');
  const onOpen = atRules(criticalCss(siteCss, open));
  assert.ok(onOpen.includes('@keyframes accordion-open'), 'an open <details> animates with accordion-open');
});

critical('keeps @property only for a custom property that is used', () => {
  const open = home.replace('<details class="faq__item">', '<details class="faq__item" open>');
  const kept = atRules(criticalCss(siteCss, open));
  assert.ok(
    kept.includes('@property --accordion-height'),
    `used by the kept accordion-open keyframes: ${kept.join(' | ')}`,
  );
  assert.not.ok(kept.includes('@property --unused-angle'));
  assert.not.ok(
    atRules(criticalCss(siteCss, home)).includes('@property --accordion-height'),
    'not used when no details is open',
  );
});

critical('keeps the custom properties defined on :root', () => {
  const css = criticalCss(siteCss, '<p>x</p>');
  assert.ok(css.includes(':root{--font-display:"Anton", sans-serif;'), css);
});

critical('keeps a rule whose selector css-select cannot evaluate', () => {
  assert.throws(() => compile('.card:dir(rtl)'), /dir/, 'premise: css-select cannot evaluate :dir()');
  const css = criticalCss(
    '.card:dir(rtl){direction:rtl}.card:host-context(.x){color:red}.gone:dir(rtl){color:blue}',
    '<p class="card">x</p>',
  );
  assert.is(
    css,
    '.card:dir(rtl){direction:rtl}.card:host-context(.x){color:red}',
    'kept, unless a class it requires is absent',
  );
});

critical('matches rules for :root, html and body on the content of <body> as on a whole document', () => {
  const css = ':root{--a:1}html{color:red}body{margin:0}body>main{padding:0}html body p{color:blue}';
  const expected = ':root{--a:1}html{color:red}body{margin:0}body>main{padding:0}html body p{color:blue}';
  assert.is(criticalCss(css, '<main><p>x</p></main>'), expected, 'content of <body>');
  assert.is(
    criticalCss(css, '<!doctype html><html><head></head><body><main><p>x</p></main></body></html>'),
    expected,
    'whole document',
  );
});

critical('matches nothing inside a <template>, whose contents the browser does not render', () => {
  const css = '.shown{color:blue}.inert{color:red}template .inert{margin:0}section>p.inert{padding:0}';
  assert.is(
    criticalCss(css, '<section><p class="shown">x</p><template><p class="inert">y</p></template></section>'),
    '.shown{color:blue}',
  );
});

critical('matches escaped class names', () => {
  const css = '.md\\:grid{display:grid}.\\31 0col{width:10%}.w-1\\/2{width:50%}.absent\\:x{color:red}';
  assert.is(
    criticalCss(css, '<div class="md:grid 10col w-1/2"></div>'),
    '.md\\:grid{display:grid}.\\31 0col{width:10%}.w-1\\/2{width:50%}',
  );
});

critical('keeps nested rules with their parent when nesting was not lowered', () => {
  const css = '.card{color:red;&:hover{color:blue}@media (min-width:1px){padding:0}}.other{color:red;& p{color:blue}}';
  assert.is(
    criticalCss(css, '<div class="card"></div>'),
    '.card{color:red;&:hover{color:blue}@media (min-width:1px){padding:0}}',
  );
});

critical('keeps @charset, @import and @namespace', () => {
  const css =
    '@charset "UTF-8";@import url(https://fonts.example/a.css);@namespace svg url(http://www.w3.org/2000/svg);.x{color:red}';
  assert.is(
    criticalCss(css, '<p>nothing</p>'),
    '@charset "UTF-8";@import url(https://fonts.example/a.css);@namespace svg url(http://www.w3.org/2000/svg);',
  );
});

critical('keeps values exactly as given, fallbacks included, and drops comments and whitespace', () => {
  const css = '/* theme */\n.a {\n  color: #bb5846;\n  color: lab(50% 40 30);\n}\n\n.b { margin: 0 !important }\n';
  assert.is(criticalCss(css, '<p class="a b">x</p>'), '.a{color:#bb5846;color:lab(50% 40 30)}.b{margin:0!important}');
});

critical('is deterministic, and one page does not change the result of the next', () => {
  const first = criticalCss(siteCss, home);
  const other = criticalCss(siteCss, contact);
  assert.is.not(first, other);
  assert.is(criticalCss(siteCss, home), first);
  assert.is(criticalCss(siteCss, contact), other);
});

critical("agrees with linkedom's querySelector on selectors of names, classes, ids and combinators", () => {
  const html = contact;
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const probes = [
    'header',
    'header.site-header',
    '.site-header a',
    '.site-header > a',
    '.site-header > nav > a',
    'nav > a + a',
    'nav a ~ a',
    'a + nav',
    'nav + a',
    '.nav a + a + a',
    'main form',
    'main > form',
    'site-island > form',
    'site-island form',
    'body > main > site-island',
    '#name',
    'input#name',
    'label + input',
    'label ~ input',
    'input + label',
    '#name.form__input',
    '.form .form__row .form__input',
    '.form > .form__input',
    'form button span',
    'span + button',
    'button > span',
    '.form__row + .form__row',
    '*',
    'main *',
    'nav *',
    'header > *',
    '* > site-island',
    '.site-header ~ main',
    'main ~ header',
    '.button.form__spinner',
    'html',
    'html > body',
    'body main',
    'section',
    '.faq',
    'div.form__row label',
  ];
  for (const probe of probes) {
    const expected = document.querySelector(probe) !== null;
    const kept = criticalCss(`${probe}{color:red}`, html) !== '';
    assert.is(kept, expected, `"${probe}": linkedom says ${expected ? 'it matches' : 'no match'}`);
  }
});

critical('selects from a stylesheet compiled by compileStylesheet', async () => {
  const { css } = await compileStylesheet({ entry: `${fixtures}site/main.css`, browserslist: ['defaults'] });
  const page = criticalCss(css, '<article class="card"><h2 class="card__title">Title</h2></article>');
  assert.ok(page.includes('.card .card__title{font-family:Anton,sans-serif}'), page);
  assert.equal(
    fontFamilies(page),
    [],
    'the title uses Anton, whose @fontsource face swaps: it comes with the full stylesheet, after the first paint',
  );
  assert.not.ok(page.includes('.remote'), page);
});

critical('fails with a CssError for CSS it cannot parse', () => {
  assert.throws(
    () => criticalCss('.a{color:red', '<p class="a"></p>'),
    (error: unknown) => error instanceof CssError && /Unclosed block/.test((error as Error).message),
  );
});

/** A page whose main holds a first screen and three sections the stylesheet defers with content-visibility: auto. */
const deferredPage = [
  '<!doctype html><html class="dark"><body><main>',
  '<section class="hero"><h1 class="title">Hi</h1><a class="btn">Go</a></section>',
  '<section class="section"><p class="first-deferred">Near the first screen</p></section>',
  '<section class="section"><p class="pillar">Pillar</p><a class="btn">More</a><span class="icon">i</span></section>',
  '<section class="section"><div class="faq"><p class="faq-q">Q</p></div></section>',
  '</main><footer class="footer"><p class="footer-text">Footer</p><span class="icon">i</span></footer></body></html>',
].join('');
const deferredCss = [
  'main>.section:not(:first-child){content-visibility:auto;contain-intrinsic-size:auto 40rem}',
  '.title{font-size:3rem}.btn{color:red}.first-deferred{color:blue}.pillar{margin:0}.faq .faq-q{font-weight:700}',
  '.footer-text{color:gray}.icon{width:1rem}.section{padding:1rem}',
  '.light .pillar{color:#000}.dark{--bg:#000}.light{--bg:#fff}html.dark .faq{color:var(--fg)}.dark{--fg:#fff}',
  '@keyframes pop{to{opacity:1}}.faq-q{animation:pop 1s}',
].join('');

critical('leaves out a rule that matches only inside a content-visibility: auto subtree after the first', () => {
  const kept = selectors(criticalCss(deferredCss, deferredPage));
  for (const selector of ['.pillar', '.faq .faq-q', '.light .pillar', 'html.dark .faq', '.faq-q']) {
    assert.not.ok(
      kept.includes(selector),
      `${selector} only styles what the first paint skips; kept: ${kept.join(' | ')}`,
    );
  }
  assert.not.ok(
    criticalCss(deferredCss, deferredPage).includes('@keyframes pop'),
    'nor the keyframes only a left-out rule uses',
  );
});

critical('keeps a rule that matches inside such a subtree and outside it', () => {
  const kept = selectors(criticalCss(deferredCss, deferredPage));
  assert.ok(kept.includes('.btn'), '.btn is also in the hero');
  assert.ok(kept.includes('.icon'), '.icon is also in the footer, which is not deferred');
  assert.ok(kept.includes('.footer-text'), 'the footer keeps its CSS');
});

critical('keeps the rules of the deferred elements themselves, and of the whole first deferred subtree', () => {
  const kept = selectors(criticalCss(deferredCss, deferredPage));
  assert.ok(
    kept.includes('main>.section:not(:first-child)'),
    'the rule that defers them, with the size that holds their place',
  );
  assert.ok(kept.includes('.section'), 'their own box is rendered');
  assert.ok(
    kept.includes('.first-deferred'),
    'the first deferred section may begin inside the first screen: the browser renders it in the first frame',
  );
});

critical('keeps the theme rules for the html element whatever is deferred', () => {
  const kept = selectors(criticalCss(deferredCss, deferredPage));
  assert.ok(
    kept.includes('.dark') && kept.includes('.light'),
    `both themes' rules for <html> stay; kept: ${kept.join(' | ')}`,
  );
});

critical('defers only for certain: not for a state, a media query, a theme, or when another rule may undo it', () => {
  const base = '.title{x:1}.first-deferred{x:1}.pillar{x:1}.faq-q{x:1}';
  const keepsPillar = (css: string, why: string) =>
    assert.ok(selectors(criticalCss(css + base, deferredPage)).includes('.pillar'), why);
  keepsPillar('.section:hover{content-visibility:auto}', 'a state may not hold at first paint');
  keepsPillar(
    '@media (min-width:60rem){.section{content-visibility:auto}}',
    'a media query may not hold in this window',
  );
  keepsPillar('.light .section{content-visibility:auto}', 'one theme only');
  keepsPillar(
    '.section{content-visibility:auto}.section:nth-child(3){content-visibility:visible}',
    'a later rule may make it visible',
  );
  keepsPillar(
    '.section{content-visibility:auto}.section:focus-within{content-visibility:visible}',
    'a state may make it visible',
  );
  assert.not.ok(
    selectors(criticalCss('@layer base{.section{content-visibility:auto}}' + base, deferredPage)).includes('.pillar'),
    'inside @layer the declaration applies everywhere',
  );
});

critical('defers nothing on a page without content-visibility: auto', () => {
  const kept = selectors(criticalCss('.pillar{margin:0}.faq-q{x:1}', deferredPage));
  assert.equal(kept, ['.pillar', '.faq-q']);
});

critical.run();

const strip = suite('stripDynamic');

strip('removes user-action and state pseudo-classes', () => {
  assert.is(stripDynamic('.nav a:hover'), '.nav a');
  assert.is(stripDynamic('.field:focus-visible'), '.field');
  assert.is(stripDynamic('a:visited:active'), 'a');
  assert.is(stripDynamic('.input:checked + label'), '.input + label');
  assert.is(stripDynamic('dialog:open'), 'dialog');
  assert.is(stripDynamic('[popover]:popover-open'), '[popover]');
  assert.is(stripDynamic('input:-webkit-autofill'), 'input');
});

strip('removes pseudo-elements, legacy single-colon ones too', () => {
  assert.is(stripDynamic('.quote::before'), '.quote');
  assert.is(stripDynamic('.quote:after'), '.quote');
  assert.is(stripDynamic('input::placeholder'), 'input');
  assert.is(stripDynamic('.scroll::-webkit-scrollbar-thumb:hover'), '.scroll');
  assert.is(stripDynamic('::selection'), '*');
  assert.is(stripDynamic('li::marker'), 'li');
});

strip('puts * where a compound would be left empty', () => {
  assert.is(stripDynamic('.menu :focus-visible'), '.menu *');
  assert.is(stripDynamic('.menu > :hover'), '.menu > *');
  assert.is(stripDynamic(':hover.card'), '*.card');
});

strip('drops a :not() that holds a state, so the match is never narrower', () => {
  assert.is(stripDynamic('.button:not(:disabled)'), '.button');
  assert.is(stripDynamic('.input:not(:placeholder-shown):invalid'), '.input');
  assert.is(stripDynamic('.item:not(.is-active)'), '.item:not(.is-active)');
});

strip('strips inside :is(), :where() and :has(), and spells :matches() and :-webkit-any() as :is()', () => {
  assert.is(stripDynamic(':is(.a:hover, .b) .c'), ':is(.a,.b) .c');
  assert.is(stripDynamic(':where(.a::before)'), ':where(.a)');
  assert.is(stripDynamic('form:has(input:checked)'), 'form:has(input)');
  assert.is(stripDynamic('.row:has(> :focus)'), '.row:has(> *)');
  assert.is(stripDynamic(':-webkit-any(.a, .b) p'), ':is(.a,.b) p');
});

strip('leaves structural pseudo-classes, attributes and escapes alone', () => {
  assert.is(stripDynamic('li:nth-child(2n+1)'), 'li:nth-child(2n+1)');
  assert.is(stripDynamic('a[href=":hover"]'), 'a[href=":hover"]');
  assert.is(stripDynamic('.md\\:flex:hover'), '.md\\:flex');
  assert.is(stripDynamic(':root'), ':root');
});

strip.run();
