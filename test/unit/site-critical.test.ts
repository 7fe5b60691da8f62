import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite } from '../../src/pipeline/build.ts';

const critical = suite('critical CSS of the real site');
let styles: Record<string, string> = {};

critical.before(async () => {
  const { files } = await buildSite({ config: 'site.config.ts', out: 'unused', write: false });
  const styleOf = (file: string) => parseHTML(String(files.get(file))).document.querySelector('style')!.textContent!;
  styles = { home: styleOf('index.html'), contact: styleOf('contact/index.html') };
});

critical("the contact page's inline CSS carries the form's rules but not the FAQ's", () => {
  assert.match(styles.contact!, /\.contact-form/);
  assert.not.match(styles.contact!, /\.faq/, 'no FAQ rule on /contact');
});

critical("the home page's inline CSS carries the FAQ's rules but not the contact form's", () => {
  assert.match(styles.home!, /\.faq/);
  assert.not.match(styles.home!, /\.contact-form|\.form-card/, 'no contact-form rule on /');
});

critical.run();
