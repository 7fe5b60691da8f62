// The content schemas: the site's own content passes, and each kind of mistake fails with a message that says what to do.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import copy from '../../content/copy.ts';
import faq from '../../content/faq.ts';
import navigation from '../../content/navigation.ts';
import partners from '../../content/partners.ts';
import { collections, href } from '../../content/schema.ts';
import services from '../../content/services.ts';
import { validateContent } from '../../src/pipeline/site-module.ts';
import type { ProjectPaths } from '../../src/core/paths.ts';
import { ContentError } from '../../src/core/errors.ts';
import { routes } from '../../src/site/routes.tsx';
import { loadContent } from '../helpers/dom.ts';

const clone = <T>(value: T): T => structuredClone(value);

/** The message the build shows for content in which `files` replaces some files' data. */
function buildMessage(files: Record<string, unknown>): string {
  const contentModules: Record<string, { default: unknown }> = {};
  for (const [name, { file }] of Object.entries(collections))
    contentModules[file] = { default: clone((realData as Record<string, unknown>)[name]) };
  for (const [file, data] of Object.entries(files)) contentModules[file] = { default: data };
  const paths = {
    root: '/site',
    contentSchema: '/site/content/schema.ts',
    routes: '/site/src/site/routes.tsx',
  } as ProjectPaths;
  try {
    validateContent(paths, { collections, contentModules, routes: routes as never });
  } catch (error) {
    assert.instance(error, ContentError, 'a content mistake is a ContentError');
    return (error as Error).message;
  }
  throw new Error('expected the build to reject the content');
}

function issue(
  schema: {
    safeParse(data: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
  },
  data: unknown,
) {
  const result = schema.safeParse(data);
  assert.not.ok(result.success, 'expected the schema to reject the data');
  return result.error!.issues[0]!;
}

const realData = await loadContent();

const valid = suite('content: the site content');

valid('every content file passes its schema', async () => {
  const content = await loadContent();
  assert.is(content.services.length, 6);
  assert.is(content.faq.length, 7);
  assert.is(content.partners.length, 7);
});

valid('the build accepts the content as it is', () => {
  const contentModules = Object.fromEntries(Object.values(collections).map(({ file }) => [file, { default: {} }]));
  const files = {
    'services.ts': services,
    'faq.ts': faq,
    'partners.ts': partners,
    'navigation.ts': navigation,
    'copy.ts': copy,
  };
  const paths = {
    root: '/site',
    contentSchema: '/site/content/schema.ts',
    routes: '/site/src/site/routes.tsx',
  } as ProjectPaths;
  const modules = {
    ...contentModules,
    ...Object.fromEntries(Object.entries(files).map(([f, d]) => [f, { default: d }])),
  };
  modules['errors.ts'] = { default: realData.errors };
  modules['company.ts'] = { default: realData.company };
  modules['theme.ts'] = { default: realData.theme };
  const content = validateContent(paths, { collections, contentModules: modules, routes: routes as never });
  assert.equal(Object.keys(content).sort(), Object.keys(collections).sort());
});

valid('services carry the spec ids, titles and five bullets each', () => {
  assert.equal(
    realData.services.map((s) => s.id),
    [
      'service-record-label',
      'service-music-production',
      'service-artist-development',
      'service-music-publishing',
      'service-business-consulting',
      'service-video-production',
    ],
  );
  assert.is(realData.services[0]!.mobileTitle, 'LABEL SERVICES');
  for (const service of realData.services) assert.is(service.bullets.length, 5, `${service.id} has 5 bullets`);
});

valid.run();

const servicesSuite = suite('content: services schema');
const servicesSchema = collections.services.schema;

servicesSuite('a service with 4 bullets is named, with the rule to follow', () => {
  const data = clone(services) as Array<{ bullets: string[] }>;
  data[5]!.bullets.pop();
  assert.is(
    buildMessage({ 'services.ts': data }),
    'content/services.ts: services[5] ("service-video-production").bullets has 4 items; each service needs exactly 5.',
  );
});

servicesSuite('five services instead of six is rejected with the count', () => {
  const data = clone(services).slice(0, 5);
  assert.is(
    buildMessage({ 'services.ts': data }),
    'content/services.ts: services has 5 services; the site shows exactly 6. Add or remove services.',
  );
});

servicesSuite('two services with one id: the second is pointed at', () => {
  const data = clone(services) as Array<{ id: string }>;
  data[3]!.id = data[1]!.id;
  const found = issue(servicesSchema, data);
  assert.equal(found.path, [3, 'id']);
  assert.match(found.message, 'repeats the id "service-music-production" of item 1; every id must be unique.');
});

servicesSuite('an unknown icon lists the icons there are', () => {
  const data = clone(services) as Array<{ icon: string }>;
  data[0]!.icon = 'guitar';
  const found = issue(servicesSchema, data);
  assert.equal(found.path, [0, 'icon']);
  assert.match(found.message, /is not a known icon; use one of "disc", /);
});

servicesSuite('an empty bullet asks for the text', () => {
  const data = clone(services) as Array<{ bullets: string[] }>;
  data[2]!.bullets[1] = '  ';
  const found = issue(servicesSchema, data);
  assert.equal(found.path, [2, 'bullets', 1]);
  assert.match(found.message, /^is empty; write the text shown on the site/);
});

servicesSuite('an id without the "service-" prefix is rejected', () => {
  const data = clone(services) as Array<{ id: string }>;
  data[0]!.id = 'record-label';
  assert.match(issue(servicesSchema, data).message, 'service ids start with "service-"');
});

servicesSuite.run();

const others = suite('content: faq, partners, navigation and copy schemas');

others('six questions instead of seven is rejected', () => {
  assert.match(
    buildMessage({ 'faq.ts': clone(faq).slice(1) }),
    'content/faq.ts: faq has 6 questions; the FAQ shows exactly 7.',
  );
});

others('a question with no answer says the answer is missing', () => {
  const data = clone(faq) as Array<{ answer?: string }>;
  delete data[2]!.answer;
  assert.match(
    buildMessage({ 'faq.ts': data }),
    /^content\/faq\.ts: faq\[2\] \("faq-standing-out"\)\.answer is missing; add it/,
  );
});

others('eight partners is rejected', () => {
  const data = [...clone(partners), { ...clone(partners[0]!), id: 'extra' }];
  assert.match(
    buildMessage({ 'partners.ts': data }),
    'content/partners.ts: partners has 8 partners; the logo strip shows exactly 7.',
  );
});

others('a partner logo outside public/partners/ is rejected with the expected form', () => {
  const data = clone(partners) as Array<{ logo: string }>;
  data[1]!.logo = 'tunestore.svg';
  assert.match(
    buildMessage({ 'partners.ts': data }),
    '.logo is "tunestore.svg"; logos are files in public/partners/, written as "/partners/name.svg".',
  );
});

others('a link that is neither an anchor, a path nor a URL is rejected', () => {
  const data = clone(navigation) as { quickLinks: Array<{ href: string }> };
  data.quickLinks[1]!.href = 'about us';
  assert.match(
    buildMessage({ 'navigation.ts': data }),
    'content/navigation.ts: navigation.quickLinks[1] ("about").href is "about us", which is not a link; use an anchor ("#faq"), a site path ("/contact", "/#about") or an http(s) URL.',
  );
});

others('a menu item must point at a section of the home page', () => {
  const data = clone(navigation) as { menu: Array<{ href: string }> };
  data.menu[0]!.href = '/contact';
  assert.match(
    buildMessage({ 'navigation.ts': data }),
    /menu\[0\] \("home"\)\.href must link to a section of the home page/,
  );
});

others('links accept anchors, site paths, URLs and the "#" placeholder', () => {
  for (const ok of ['#faq', '/contact', '/#about', '/', 'https://example.com/x', '#', 'mailto:info@example.com']) {
    assert.ok(href.safeParse(ok).success, `${ok} is a link`);
  }
  for (const bad of ['faq', '//evil.example', 'javascript:alert(1)', 'http://', '#1x']) {
    assert.not.ok(href.safeParse(bad).success, `${bad} is not accepted`);
  }
});

others('a copyright line without "{year}" is rejected', () => {
  const data = clone(copy) as { footer: { copyright: string } };
  data.footer.copyright = '© 2024 Soundmark. All rights reserved.';
  assert.match(
    buildMessage({ 'copy.ts': data }),
    'content/copy.ts: copy.footer.copyright has no "{year}"; the copyright line must show the current year.',
  );
});

others('a heading accent past its last line is rejected', () => {
  const data = clone(copy) as { cta: { title: { accent: number } } };
  data.cta.title.accent = 2;
  assert.match(buildMessage({ 'copy.ts': data }), /copy\.cta\.title\.accent has an accent index past its last line/);
});

others('an unknown field is reported, so a typo does not pass silently', () => {
  const data = clone(copy) as Record<string, unknown>;
  data.heor = {};
  assert.is(
    buildMessage({ 'copy.ts': data }),
    'content/copy.ts: copy has unknown field "heor"; remove it or check the spelling.',
  );
});

others.run();
