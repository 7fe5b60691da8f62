import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig, validateConfig } from '../../src/pipeline/load-config.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { copyFixture } from '../helpers/fixture.ts';

const site = {
  name: 'Acme',
  url: 'https://acme.example',
  description: 'A site.',
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.instance(error, ConfigError, 'a bad config is a ConfigError');
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

const validate = suite('validateConfig');

validate('applies the defaults: English, /favicon.svg, 14 KB / 90 KB budgets', () => {
  const config = validateConfig({ site });
  assert.is(config.site.lang, 'en');
  assert.is(config.site.favicon, '/favicon.svg');
  assert.equal(config.build.budgets, { html: 14 * 1024, js: 90 * 1024 });
  assert.is(config.site.url, 'https://acme.example/', 'the site URL gets a trailing slash');
});

validate('names a missing field and says to add it', () => {
  const { description: _description, ...rest } = site;
  assert.match(
    messageOf(() => validateConfig({ site: rest })),
    /^site\.config\.ts: site\.description: is missing; add it/,
  );
});

validate("holds only what the generator needs: a site's own facts (an address, a theme key) are unknown fields", () => {
  const address = { street: '1 Main St', city: 'Orlando', region: 'FL', postalCode: '32801', country: 'US' };
  assert.match(
    messageOf(() => validateConfig({ site: { ...site, address } })),
    /site: has unknown field "address"/,
  );
  assert.match(
    messageOf(() => validateConfig({ site: { ...site, themeStorageKey: 'k' } })),
    /site: has unknown field "themeStorageKey"/,
  );
});

validate('names a bad URL and shows the expected form', () => {
  assert.match(
    messageOf(() => validateConfig({ site: { ...site, url: 'acme' } })),
    /site\.url: must be an absolute URL such as "https:\/\/example\.com"/,
  );
});

validate('rejects an unknown field, so a typo is not silently ignored', () => {
  assert.match(
    messageOf(() => validateConfig({ site: { ...site, emial: 'x' } })),
    /site: has unknown field "emial"; remove it or check the spelling/,
  );
});

validate('rejects a negative budget', () => {
  assert.match(
    messageOf(() => validateConfig({ site, build: { budgets: { html: -1 } } })),
    /build\.budgets\.html/,
  );
});

validate('says how to fix a config without a default export', () => {
  assert.match(
    messageOf(() => validateConfig(undefined)),
    /has no default export/,
  );
});

validate.run();

const load = suite('loadConfig');

load('loads and validates the fixture config', async () => {
  const config = await loadConfig('test/fixtures/basic/site.config.ts');
  assert.is(config.site.name, 'Fixture Records');
});

load('a missing config file says to create it or pass --config', async () => {
  try {
    await loadConfig('test/fixtures/basic/nope.config.ts');
    assert.unreachable('should fail');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.match((error as Error).message, /nope\.config\.ts does not exist.*--config/);
  }
});

load('a syntax error names the file and line', async () => {
  const copy = copyFixture();
  try {
    copy.edit('site.config.ts', (t) => t.replace("name: 'Fixture Records',", "name: 'Fixture Records',,"));
    await loadConfig(copy.config);
    assert.unreachable('should fail');
  } catch (error) {
    assert.instance(error, ConfigError);
    assert.match((error as Error).message, /site\.config\.ts could not be loaded: site\.config\.ts:\d+:\d+:/);
  } finally {
    copy.remove();
  }
});

load.run();
