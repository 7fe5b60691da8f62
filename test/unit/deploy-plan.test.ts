import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, createHttpPolicy } from '../../src/core/http/policy.ts';
import type { LocalFile } from '../../src/deploy/local.ts';
import { manifestKey, parseManifest, serializeManifest, trustedState } from '../../src/deploy/manifest.ts';
import type { Manifest, ObjectState, RemoteObject } from '../../src/deploy/manifest.ts';
import { compareTarget, keysToInspect, manifestAfter, planDeploy } from '../../src/deploy/plan.ts';
import type { RemoteListing } from '../../src/deploy/plan.ts';
import { targetsFor } from '../../src/deploy/targets.ts';
import type { Target } from '../../src/deploy/targets.ts';

// Fake MD5s: one distinct hex digest per content string.
const md5 = (content: string) => Buffer.from(content.padEnd(16, '.')).subarray(0, 16).toString('hex');

function local(files: Record<string, string>): LocalFile[] {
  return Object.entries(files).map(([path, content]) => ({
    path,
    absolutePath: `/dist/${path}`,
    size: content.length,
    md5: md5(content),
  }));
}

/** The state a previous deploy stored each target with (identity encoding: the ETag is the MD5). */
function stored(targets: readonly Target[]): {
  objects: Map<string, RemoteObject>;
  states: Record<string, ObjectState>;
} {
  const objects = new Map<string, RemoteObject>();
  const states: Record<string, ObjectState> = {};
  for (const target of targets) {
    objects.set(target.key, { key: target.key, size: target.size, etag: target.md5, lastModified: new Date(1000) });
    states[target.key] = {
      etag: target.md5,
      size: target.size,
      md5: target.md5,
      contentType: target.contentType,
      cacheControl: target.cacheControl,
    };
  }
  return { objects, states };
}

function listingWith(objects: Map<string, RemoteObject>, manifest?: Partial<Manifest>): RemoteListing {
  if (!manifest) return { objects };
  return {
    objects,
    manifest: {
      manifest: { version: 1, generation: 0, objects: {}, retired: {}, ...manifest },
      lastModified: new Date(2000),
    },
  };
}

const site = {
  'index.html': '<h1>home</h1>',
  'contact/index.html': '<h1>contact</h1>',
  '404.html': '<h1>not found</h1>',
  'assets/home-3f9a1c2b.js': 'console.log(1)',
  'favicon.svg': '<svg/>',
  'sitemap.xml': '<urlset/>',
};
const options = { prefix: '', gzip: false };

/** A bucket holding exactly `files` from a previous deploy with a manifest of generation `generation`. */
function deployed(files: Record<string, string>, generation = 1, retired: Record<string, number> = {}) {
  const targets = targetsFor(local(files), options);
  const { objects, states } = stored(targets);
  return listingWith(objects, { generation, objects: states, retired });
}

const plan = suite('planDeploy');

plan('uploads everything to an empty bucket, hashed assets first and sitemap last', () => {
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing: { objects: new Map() },
    maxDeletes: 256,
  });
  assert.equal(
    result.uploads.map((upload) => upload.target.key),
    [
      'assets/home-3f9a1c2b.js',
      'favicon.svg',
      'contact',
      'contact/index.html',
      'index.html',
      '404.html',
      'sitemap.xml',
    ],
  );
  assert.ok(result.uploads.every((upload) => upload.reason === 'new'));
  assert.is(result.deletes.length, 0);
  assert.is(result.generation, 1, 'the first deploy that changes the site is generation 1');
  assert.is(
    result.uploadBytes,
    Object.values(site).reduce((sum, text) => sum + text.length, 0) + site['contact/index.html'].length,
  );
});

plan('uploads nothing when the bucket already holds the same files with the same headers', () => {
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing: deployed(site),
    maxDeletes: 256,
  });
  assert.is(result.uploads.length, 0);
  assert.is(result.unchanged.length, 7);
  assert.is(result.generation, 1, 'a deploy that changes nothing keeps the generation');
});

plan('uploads only the changed page when one page changes', () => {
  const changed = { ...site, 'contact/index.html': '<h1>contact us</h1>' };
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(changed), options),
    listing: deployed(site),
    maxDeletes: 256,
  });
  assert.equal(
    result.uploads.map((upload) => `${upload.target.key}:${upload.reason}`),
    ['contact:content', 'contact/index.html:content'],
  );
  assert.is(result.generation, 2);
});

plan('re-uploads a file whose stored Cache-Control or Content-Type is not the one it should have', () => {
  const listing = deployed(site);
  listing.manifest!.manifest.objects['favicon.svg']!.contentType = 'application/octet-stream';
  listing.manifest!.manifest.objects['assets/home-3f9a1c2b.js']!.cacheControl = CACHE_REVALIDATE;
  const result = planDeploy({ prefix: '', targets: targetsFor(local(site), options), listing, maxDeletes: 256 });
  assert.equal(
    result.uploads.map((upload) => `${upload.target.key}:${upload.reason}`),
    ['assets/home-3f9a1c2b.js:headers', 'favicon.svg:headers'],
  );
});

plan("deletes a removed page at once and keeps the previous deploy's hashed asset for one more deploy", () => {
  const next = { ...site, 'assets/home-7e6d5c4b.js': 'console.log(2)' } as Record<string, string>;
  delete next['assets/home-3f9a1c2b.js'];
  delete next['contact/index.html'];
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(next), options),
    listing: deployed(site, 4),
    maxDeletes: 256,
  });
  assert.equal(result.deletes, ['contact', 'contact/index.html'], 'the page and its alias go');
  assert.equal(
    result.retained,
    [{ key: 'assets/home-3f9a1c2b.js', retiredIn: 5 }],
    'the old asset stays, marked with the new generation',
  );
  assert.is(result.generation, 5);
});

plan('deletes a retired asset on the next deploy that changes the site, not on one that changes nothing', () => {
  const now = { ...site, 'assets/home-7e6d5c4b.js': 'console.log(2)' } as Record<string, string>;
  delete now['assets/home-3f9a1c2b.js'];
  const bucket = { ...now, 'assets/home-3f9a1c2b.js': 'console.log(1)' };
  const retired = { 'assets/home-3f9a1c2b.js': 5 };

  const same = planDeploy({
    prefix: '',
    targets: targetsFor(local(now), options),
    listing: deployed(bucket, 5, retired),
    maxDeletes: 256,
  });
  assert.is(same.deletes.length, 0, 'a re-run of the same build keeps the old asset');
  assert.equal(same.retained, [{ key: 'assets/home-3f9a1c2b.js', retiredIn: 5 }]);

  const changed = { ...now, 'index.html': '<h1>home, new</h1>' };
  const next = planDeploy({
    prefix: '',
    targets: targetsFor(local(changed), options),
    listing: deployed(bucket, 5, retired),
    maxDeletes: 256,
  });
  assert.equal(next.deletes, ['assets/home-3f9a1c2b.js']);
  assert.equal(next.retained, []);
});

plan(
  'judges a removed file by how it was stored: immutable means an old hashed asset, whatever its name looks like',
  () => {
    // The build's list called assets/logo-facadeee.js hashed (the name alone would not), and a public/ file that looks
    // hashed was stored must-revalidate: the first is kept for one more deploy, the second is deleted at once.
    const built = createHttpPolicy(new Set(['assets/home-3f9a1c2b.js', 'assets/logo-facadeee.js']));
    const before = { ...site, 'assets/logo-facadeee.js': 'old', 'assets/report-2b3c4d5e.pdf': 'pdf' };
    const { objects, states } = stored(targetsFor(local(before), { ...options, policy: built }));
    assert.is(states['assets/logo-facadeee.js']!.cacheControl, CACHE_IMMUTABLE, 'stored immutable, as the build said');
    const result = planDeploy({
      prefix: '',
      targets: targetsFor(local(site), { ...options, policy: built }),
      listing: listingWith(objects, { generation: 1, objects: states }),
      maxDeletes: 256,
    });
    assert.equal(result.retained, [{ key: 'assets/logo-facadeee.js', retiredIn: 2 }]);
    assert.equal(result.deletes, ['assets/report-2b3c4d5e.pdf']);
  },
);

plan('keeps an old asset that a rollback brings back, and forgets that it was retired', () => {
  const retired = { 'assets/home-3f9a1c2b.js': 2 };
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing: deployed(site, 3, retired),
    maxDeletes: 256,
  });
  assert.is(result.deletes.length, 0);
  assert.equal(manifestAfter(result, new Map(), new Date(0)).retired, {});
});

plan('deletes nothing when more deletes are due than --max-deletes, and says which', () => {
  const bucket = { ...site, 'old/a.html': 'a', 'old/b.html': 'b', 'old/c.html': 'c' };
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing: deployed(bucket),
    maxDeletes: 2,
  });
  assert.equal(result.deletes, [], 'the guard deletes nothing at all');
  assert.equal(result.blockedDeletes, { keys: ['old/a.html', 'old/b.html', 'old/c.html'], maxDeletes: 2 });
  const allowed = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing: deployed(bucket),
    maxDeletes: 3,
  });
  assert.equal(
    allowed.deletes,
    ['old/a.html', 'old/b.html', 'old/c.html'],
    'exactly --max-deletes deletes are allowed',
  );
});

plan('keeps an expired asset recorded as retired when the guard blocks deletes, so a later deploy removes it', () => {
  const now = { ...site, 'index.html': '<h1>home, new</h1>' } as Record<string, string>;
  const bucket = { ...site, 'assets/old-AB12CD34.js': 'old', 'old.html': 'x' };
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(now), options),
    listing: deployed(bucket, 3, { 'assets/old-AB12CD34.js': 2 }),
    maxDeletes: 1,
  });
  assert.equal(result.deletes, []);
  assert.equal(result.blockedDeletes?.keys, ['assets/old-AB12CD34.js', 'old.html']);
  assert.equal(manifestAfter(result, new Map(), new Date(0)).retired, { 'assets/old-AB12CD34.js': 2 });
});

plan('only touches keys under the prefix and never deletes its own manifest', () => {
  const targets = targetsFor(local(site), { prefix: 'preview/', gzip: false });
  const { objects, states } = stored(targets);
  objects.set('preview/.site-gen/deploy-manifest.json', {
    key: 'preview/.site-gen/deploy-manifest.json',
    size: 1,
    etag: 'x',
  });
  const result = planDeploy({
    prefix: 'preview/',
    targets,
    listing: listingWith(objects, { objects: states }),
    maxDeletes: 256,
  });
  assert.ok(result.uploads.length === 0 && result.deletes.length === 0);
  assert.is(result.manifestKey, manifestKey('preview/'));
  assert.ok(targets.every((target) => target.key.startsWith('preview/')));
});

plan('uploads an object that vanished between listing and inspection', () => {
  const listing = deployed(site);
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(site), options),
    listing,
    inspected: new Map([['index.html', null]]),
    maxDeletes: 256,
  });
  assert.equal(
    result.uploads.map((upload) => `${upload.target.key}:${upload.reason}`),
    ['index.html:new'],
  );
});

const compare = suite('compareTarget and keysToInspect');

const [page] = targetsFor(local({ 'index.html': '<h1>home</h1>' }), options);
const [gzipped] = targetsFor(local({ 'index.html': '<h1>home</h1>' }), { prefix: '', gzip: true });
const remote = (size: number, etag: string): RemoteObject => ({ key: 'index.html', size, etag });

compare('calls an identity file of another size changed without asking S3', () => {
  assert.is(compareTarget(page!, remote(999, 'x'), undefined), 'content');
});

compare('needs the stored headers when the size matches and nothing vouches for them', () => {
  assert.is(compareTarget(page!, remote(page!.size, page!.md5), undefined), 'unknown');
  assert.equal(keysToInspect([page!], { objects: new Map([['index.html', remote(page!.size, page!.md5)]]) }), [
    'index.html',
  ]);
});

compare('trusts the ETag as MD5 of a plain object once its headers are known', () => {
  const state = { etag: page!.md5, size: page!.size, contentType: page!.contentType, cacheControl: page!.cacheControl };
  assert.is(compareTarget(page!, remote(page!.size, page!.md5), state), 'same');
  assert.is(
    compareTarget(page!, remote(page!.size, 'ffffffffffffffffffffffffffffffff'), { ...state, etag: 'f'.repeat(32) }),
    'content',
  );
});

compare('compares a gzip-encoded object by the MD5 of the uncompressed content kept in its metadata', () => {
  const state = {
    etag: 'aaaabbbbccccddddaaaabbbbccccdddd',
    size: 40,
    md5: gzipped!.md5,
    contentType: gzipped!.contentType,
    cacheControl: gzipped!.cacheControl,
    contentEncoding: 'gzip',
  };
  assert.is(compareTarget(gzipped!, remote(40, state.etag), state), 'same');
  assert.is(compareTarget(gzipped!, remote(40, state.etag), { ...state, md5: md5('other') }), 'content');
  assert.is(
    compareTarget(page!, remote(40, state.etag), state),
    'headers',
    'turning --gzip off re-uploads the file as is',
  );
  const plain = { etag: page!.md5, size: page!.size, contentType: page!.contentType, cacheControl: page!.cacheControl };
  assert.is(
    compareTarget(gzipped!, remote(page!.size, page!.md5), plain),
    'headers',
    'turning --gzip on re-uploads the file encoded',
  );
});

compare('does not trust the ETag of an object stored without an MD5 in a non-MD5 ETag form', () => {
  const state = { etag: 'abc-2', size: page!.size, contentType: page!.contentType, cacheControl: CACHE_REVALIDATE };
  assert.is(compareTarget(page!, remote(page!.size, 'abc-2'), state), 'content', 'a multipart ETag proves nothing');
});

const manifest = suite('deploy manifest');

manifest(
  'vouches for an object only while its ETag and size are the stored ones and it is not newer than the manifest',
  () => {
    const entry = { etag: 'e1', size: 5, md5: 'm', contentType: 't', cacheControl: 'c' };
    const stored = {
      manifest: { version: 1 as const, generation: 1, objects: { k: entry }, retired: {} },
      lastModified: new Date(2000),
    };
    assert.equal(trustedState({ key: 'k', size: 5, etag: 'e1', lastModified: new Date(2000) }, stored), entry);
    assert.is(
      trustedState({ key: 'k', size: 5, etag: 'e2', lastModified: new Date(1000) }, stored),
      undefined,
      'another ETag',
    );
    assert.is(
      trustedState({ key: 'k', size: 6, etag: 'e1', lastModified: new Date(1000) }, stored),
      undefined,
      'another size',
    );
    assert.is(
      trustedState({ key: 'k', size: 5, etag: 'e1', lastModified: new Date(3000) }, stored),
      undefined,
      'rewritten after the manifest',
    );
  },
);

manifest('round-trips through JSON and rejects text that is not a manifest', () => {
  const value: Manifest = {
    version: 1,
    generation: 3,
    objects: { a: { etag: 'e', size: 1 } },
    retired: { 'assets/x-AB12CD34.js': 2 },
  };
  assert.equal(parseManifest(serializeManifest(value)), value);
  assert.is(parseManifest('not json'), undefined);
  assert.is(parseManifest('{"version":2}'), undefined);
});

manifest('after a deploy records uploaded and unchanged objects and the retired assets', () => {
  const next = { ...site, 'assets/home-7e6d5c4b.js': 'console.log(2)' } as Record<string, string>;
  delete next['assets/home-3f9a1c2b.js'];
  const result = planDeploy({
    prefix: '',
    targets: targetsFor(local(next), options),
    listing: deployed(site, 1),
    maxDeletes: 256,
  });
  const uploaded = new Map(result.uploads.map(({ target }) => [target.key, { etag: 'new', size: 1, md5: target.md5 }]));
  const after = manifestAfter(result, uploaded, new Date(0));
  assert.is(after.generation, 2);
  assert.equal(
    Object.keys(after.objects).sort(),
    targetsFor(local(next), options)
      .map((target) => target.key)
      .sort(),
  );
  assert.equal(after.retired, { 'assets/home-3f9a1c2b.js': 2 });
  assert.is(after.objects['assets/home-7e6d5c4b.js']!.etag, 'new');
});

plan.run();
compare.run();
manifest.run();
