// Fenced code highlighted at build time: languages found by name or alias among Shiki's, tokens as classes, and any
// other fence name (one an object inherits included) a plain block.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { highlighterFor, knownLanguage, plainBlock } from '../../src/content/highlight.ts';

const highlight = suite('code highlighting');

highlight('knows a language by its name or alias, and no name an object inherits', async () => {
  assert.is(await knownLanguage('ts'), 'ts');
  assert.is(await knownLanguage('javascript'), 'javascript');
  assert.is(await knownLanguage(''), undefined);
  assert.is(await knownLanguage('nosuchlanguage'), undefined);
  for (const inherited of ['constructor', 'toString', '__proto__'])
    assert.is(await knownLanguage(inherited), undefined, `"${inherited}" is not a language`);
});

highlight('highlights with classes by alias or name alike, and leaves another fence name plain', async () => {
  const highlighter = await highlighterFor(['js', 'javascript', 'constructor', 'nosuchlanguage']);
  const code = 'const a = 1; // one\n';
  const byAlias = highlighter.highlight(code, 'js');
  assert.match(
    byAlias,
    /^<pre class="code" data-lang="js"><code><span class="line"><span class="tk-keyword">const<\/span>/,
  );
  assert.match(byAlias, /<span class="tk-comment">\/\/ one<\/span><\/span><\/code><\/pre>$/);
  assert.not.match(byAlias, /style=/, 'classes only: the CSP forbids style attributes');
  assert.is(
    highlighter.highlight(code, 'javascript'),
    byAlias.replace('data-lang="js"', 'data-lang="javascript"'),
    'the alias and the name highlight alike',
  );
  for (const lang of ['constructor', 'nosuchlanguage'])
    assert.is(highlighter.highlight(code, lang), plainBlock(code, lang), `${lang}: a plain block`);
});

highlight.run();
