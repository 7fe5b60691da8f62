// The site's icons (lucideIcon) make the HTML lucide-react's own component makes, for every icon the site imports.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ComponentType, createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type IconProps, lucideIcon } from '../../src/site/components/lucideIcon.ts';

const icons = suite('lucideIcon');

/** Every lucide icon module the site's code imports, found in its files, so an icon added later is held to it too. */
function importedIcons(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/from 'lucide-react\/icons\/([a-z0-9-]+)'/g))
          names.add(name!);
      }
    }
  };
  walk('src/site');
  return [...names].sort();
}

const propsToTry: IconProps[] = [
  {},
  { size: 18 },
  { size: 26, strokeWidth: 1.75 },
  { size: 20, className: 'accordion-icon' },
  { size: 18, className: 'theme-icon is-light' },
  // A class lucide gives already is not repeated.
  { className: 'lucide extra  spaced' },
];

icons('draws each icon the site imports as lucide-react does, with every kind of props the site gives', async () => {
  const names = importedIcons();
  assert.ok(names.length >= 20, `the site imports its icons from lucide-react/icons/ (found ${names.length})`);
  for (const name of names) {
    const module = (await import(`lucide-react/icons/${name}`)) as { default: ComponentType<IconProps> };
    const Icon = lucideIcon(module);
    for (const props of propsToTry) {
      assert.is(
        renderToString(createElement(Icon, props)),
        renderToString(createElement(module.default, props)),
        `${name} with ${JSON.stringify(props)}`,
      );
    }
  }
});

icons('an alias module (the drawing is under its other name) is refused, naming what to import', async () => {
  // lucide-react's alias modules re-export the component alone: `copyright` is `circle-letter-c`.
  const alias = await import('lucide-react/icons/copyright');
  assert.throws(
    () => lucideIcon(alias),
    /no __iconData: pass a lucide-react icon module imported whole .*re-exports CircleLetterC, e\.g\. lucide-react\/icons\/circle-letter-c\./,
  );
  assert.throws(() => lucideIcon({}), /no __iconData/);
});

icons.run();
