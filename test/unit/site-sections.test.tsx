// Each section of the site renders the texts and links of the content it is given.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { About } from '../../src/site/components/About.tsx';
import { Banner } from '../../src/site/components/Banner.tsx';
import { Cta } from '../../src/site/components/Cta.tsx';
import { Faq } from '../../src/site/components/Faq.tsx';
import { FaqSection } from '../../src/site/components/FaqSection.tsx';
import { Footer } from '../../src/site/components/Footer.tsx';
import { Hero } from '../../src/site/components/Hero.tsx';
import { Partners } from '../../src/site/components/Partners.tsx';
import { Services } from '../../src/site/components/Services.tsx';
import { linksOf, loadContent, loadSite, render, textOf } from '../helpers/dom.ts';
import { renderHeader } from '../helpers/header.tsx';

const content = await loadContent();
const site = loadSite();
const { copy, navigation } = content;

const hero = suite('Hero');

hero('shows the tagline as the h1, the introduction, and both buttons to /contact', () => {
  const r = render(<Hero copy={copy.hero} />);
  assert.is(r.$('section').id, 'home');
  assert.is(r.text('h1'), 'MUSIC IS THE ART, YOUR SUCCESS IS OUR BUSINESS');
  assert.is(r.text('.hero-text'), copy.hero.text);
  assert.equal(linksOf(r.document), [
    ['Get Started', '/contact'],
    ['Book an Appointment', '/contact'],
  ]);
});

hero('draws the accent line in the accent colour', () => {
  const r = render(<Hero copy={copy.hero} />);
  assert.is(r.text('h1 .accent'), 'YOUR SUCCESS IS OUR BUSINESS');
});

hero.run();

const about = suite('About');

about('shows WHO WE ARE, the text, Learn More to #services and the desktop-only outline button to #contact', () => {
  const r = render(<About copy={copy.about} />);
  assert.is(r.$('section').id, 'about');
  assert.is(r.text('h2'), 'WHO WE ARE');
  assert.ok(r.text().includes(copy.about.text));
  assert.equal(linksOf(r.document), [
    ['Learn More', '#services'],
    ['Book an Appointment', '#contact'],
  ]);
  const outline = r.$('a[href="#contact"]');
  assert.ok(
    outline.className.includes('btn-outline') && outline.className.includes('about-secondary'),
    'the outline button carries the desktop-only class',
  );
});

about('lists every pillar from the content', () => {
  const r = render(<About copy={copy.about} />);
  assert.equal(
    r.$$('.pillars h3').map(textOf),
    copy.about.pillars.map((p) => p.title),
  );
});

about.run();

const services = suite('Services');

services('renders the six services with their titles and five bullets each', () => {
  const r = render(<Services items={content.services} copy={copy.services} />);
  assert.is(r.$('section').id, 'services');
  assert.is(r.text('h2'), 'WHAT WE DO');
  const cards = r.$$('.service-card');
  assert.is(cards.length, 6);
  cards.forEach((card, i) => {
    const service = content.services[i]!;
    assert.is(textOf(card.querySelector('.title-full')), service.title);
    assert.equal([...card.querySelectorAll('.bullets li')].map(textOf), service.bullets);
  });
});

services('gives the record label card its shorter mobile title', () => {
  const r = render(<Services items={content.services} copy={copy.services} />);
  const first = r.$('#service-record-label-title');
  assert.is(textOf(first.querySelector('.title-short')), 'LABEL SERVICES');
  assert.ok(first.className.includes('has-short'));
  assert.is(
    r.$('#service-music-production-title').querySelector('.title-short'),
    null,
    'no short title where the content has none',
  );
});

services('every card links "Learn more" to #contact, described by its title, and Contact Us follows the grid', () => {
  const r = render(<Services items={content.services} copy={copy.services} />);
  const learn = r.$$('.card-link');
  assert.is(learn.length, 6);
  for (const link of learn) {
    assert.is(textOf(link), 'Learn more');
    assert.is(link.getAttribute('href'), '#contact');
    assert.ok(r.document.getElementById(link.getAttribute('aria-describedby')!), 'aria-describedby names an element');
  }
  assert.equal(linksOf(r.$('.actions')), [['Contact Us', '#contact']]);
});

services.run();

const partners = suite('Partners');

partners('shows Our Network, the title and intro, and each logo as an image named by the partner', () => {
  const r = render(<Partners items={content.partners} copy={copy.partners} />);
  assert.is(r.$('section').id, 'partners');
  assert.is(r.text('.badge'), 'Our Network');
  assert.is(r.text('h2'), 'INDUSTRY NETWORKS YOU CAN TRUST');
  const first = r.$$('.marquee-track')[0]!;
  const images = [...first.querySelectorAll('img')];
  assert.equal(
    images.map((img) => img.getAttribute('alt')),
    content.partners.map((p) => p.name),
  );
  assert.equal(
    images.map((img) => img.getAttribute('src')),
    content.partners.map((p) => p.logo),
  );
  for (const img of images)
    assert.ok(img.getAttribute('width') && img.getAttribute('height'), 'logos have width and height');
});

partners('repeats the list once for a seamless loop, hidden from assistive technology', () => {
  const r = render(<Partners items={content.partners} copy={copy.partners} />);
  const tracks = r.$$('.marquee-track');
  assert.is(tracks.length, 2);
  assert.is(tracks[0]!.getAttribute('aria-hidden'), null);
  assert.is(tracks[0]!.getAttribute('aria-label'), copy.partners.listLabel);
  assert.is(tracks[1]!.getAttribute('aria-hidden'), 'true');
  assert.is(tracks[1]!.querySelectorAll('img').length, 7);
});

partners('with partner links, the duplicate links cannot take focus', () => {
  const linked = content.partners.map((p) => ({ ...p, href: `https://${p.id}.example.com/` }));
  const r = render(<Partners items={linked} copy={copy.partners} />);
  const [visible, copyTrack] = r.$$('.marquee-track');
  assert.is(visible!.querySelectorAll('a:not([tabindex])').length, 7);
  assert.is(copyTrack!.querySelectorAll('a[tabindex="-1"]').length, 7);
});

partners('has a labelled pause control that works without JavaScript (a checkbox)', () => {
  const r = render(<Partners items={content.partners} copy={copy.partners} />);
  const toggle = r.$('input.marquee-toggle');
  assert.is(toggle.getAttribute('type'), 'checkbox');
  assert.is(textOf(r.$(`label[for="${toggle.id}"]`)), copy.partners.pause);
});

partners.run();

const faq = suite('FAQ');

faq('shows the badge, the title, the intro and the seven questions', () => {
  const r = render(<FaqSection items={content.faq} copy={copy.faq} />);
  assert.is(r.$('section').id, 'faq');
  assert.is(r.text('.badge'), 'Questions & Answers');
  assert.is(r.text('h2'), 'Frequently Asked Questions');
  assert.is(
    r.text('.section-intro'),
    'Get answers to some of the most common questions artists have about navigating the music industry.',
  );
  assert.equal(
    r.$$('.accordion-trigger').map(textOf),
    content.faq.map((q) => q.question),
  );
});

faq('each question is the summary of a <details>, in a heading, above its answer; all closed at first', () => {
  const r = render(<Faq items={content.faq} />);
  const items = r.$$('.accordion > details.accordion-item');
  assert.is(items.length, 7);
  items.forEach((item, i) => {
    assert.not.ok(item.hasAttribute('open'), 'closed until the visitor opens it');
    assert.not.ok(item.hasAttribute('name'), 'no name: the items are independent, several may be open at once');
    const summary = item.firstElementChild!;
    assert.is(summary.tagName, 'SUMMARY', 'the summary comes first: the platform toggles the answer on it');
    assert.is(textOf(summary.querySelector('h3')), content.faq[i]!.question);
    const panel = item.querySelector('.accordion-panel')!;
    assert.is(textOf(panel), content.faq[i]!.answer, 'the answer is in the HTML, opened by the platform');
    assert.is(panel.getAttribute('aria-labelledby'), summary.id);
  });
  assert.is(r.$$('button').length, 0, 'no script-driven button: the platform answers the tap');
});

faq('a disabled entry renders a disabled button, collapsed, with no answer to open', () => {
  const items = content.faq.map((q, i) => (i === 2 ? { ...q, disabled: true } : q));
  const r = render(<Faq items={items} />);
  const disabled = r.$$('button[disabled]');
  assert.equal(
    disabled.map((b) => b.id),
    [`${content.faq[2]!.id}-trigger`],
  );
  assert.is(disabled[0]!.getAttribute('aria-expanded'), 'false');
  assert.is(disabled[0]!.closest('.accordion-item')!.tagName, 'DIV', 'not a <details>: nothing can open it');
  assert.is(r.$$('details').length, 6);
  assert.not.ok(r.document.getElementById(`${content.faq[2]!.id}-panel`), 'its answer is not on the page');
});

faq.run();

const banner = suite('Banner');

banner('shows READY TO GET STARTED as a heading', () => {
  const r = render(<Banner copy={copy.banner} />);
  assert.is(r.text('h2'), 'READY TO GET STARTED');
});

banner.run();

const cta = suite('Call to action');

cta('in full: badge, headline, paragraph, Contact Us and Book Appointment to /contact', () => {
  const r = render(<Cta copy={copy.cta} />);
  assert.is(r.$('section').id, 'cta');
  assert.is(r.text('.badge'), 'Take Action');
  assert.is(r.text('h2'), 'ELEVATE YOUR SOUND AMPLIFY YOUR REACH');
  assert.equal(r.$$('h2 .line').map(textOf), ['ELEVATE YOUR SOUND', 'AMPLIFY YOUR REACH']);
  assert.is(r.text('.cta-text'), copy.cta.text);
  assert.equal(linksOf(r.document), [
    ['Contact Us', '/contact'],
    ['Book Appointment', '/contact'],
  ]);
});

cta('hides the paragraph and Contact Us in compact mode', () => {
  const r = render(<Cta copy={copy.cta} compact />);
  assert.is(r.text('h2'), 'ELEVATE YOUR SOUND AMPLIFY YOUR REACH');
  assert.is(r.$$('.cta-text').length, 0, 'no paragraph');
  assert.not.ok(r.text().includes(copy.cta.text));
  assert.equal(linksOf(r.document), [['Book Appointment', '/contact']]);
});

cta.run();

const header = suite('Header and menu');

const renderHeaderAt = (path: string) => renderHeader(site, content, path);

header('on the home page the menu links to the sections, then Book Appointment to #cta', () => {
  const r = renderHeaderAt('/');
  assert.equal(linksOf(r.$('.menu-list')), [
    ['Home', '#home'],
    ['About', '#about'],
    ['Services', '#services'],
    ['Resources', '#partners'],
    ['FAQ', '#faq'],
  ]);
  assert.equal(linksOf(r.$('.menu-cta').parentElement!).at(-1), ['Book Appointment', '#cta']);
});

header('on other pages the menu links go to the home page sections', () => {
  const r = renderHeaderAt('/contact');
  assert.equal(
    linksOf(r.$('.menu-panel')).map(([, href]) => href),
    ['#menu-link', '/#home', '/#about', '/#services', '/#partners', '/#faq', '/#cta'],
  );
});

header('the menu control is named "Menu" and reaches the dialog without JavaScript too', () => {
  const r = renderHeaderAt('/');
  assert.match(textOf(r.$('button.menu-button')), /Menu/);
  assert.match(textOf(r.$('a.menu-button')), /Menu/, 'the no-JavaScript link');
  assert.is(r.$('a.menu-button').getAttribute('href'), '#site-menu');
  assert.is(r.$('#site-menu').tagName.toLowerCase(), 'dialog');
  assert.is(r.$('#site-menu nav').getAttribute('aria-label'), 'Main');
  assert.is(r.$('button.menu-close').getAttribute('aria-label'), 'Close menu');
  assert.is(r.$('a.menu-close').getAttribute('aria-label'), 'Close menu');
});

header('the logo links home with the company name', () => {
  const r = renderHeaderAt('/');
  const logo = r.$('a.logo');
  assert.is(logo.getAttribute('href'), '/');
  assert.is(textOf(logo), site.name);
});

header.run();

const footer = suite('Footer');

function renderFooter(buildYear = 2031) {
  return render(
    <Footer
      name={site.name}
      company={content.company}
      copy={copy.footer}
      quickLinks={navigation.quickLinks}
      legal={navigation.legal}
      labels={{
        home: `${site.name}, home`,
        legalNav: copy.ui.legalNav,
        socialNav: copy.ui.socialNav,
        socialHint: copy.ui.socialHint,
      }}
      buildYear={buildYear}
    />,
  );
}

footer('shows the company name, the tagline and four named social links', () => {
  const r = renderFooter();
  assert.is(r.text('.footer-brand .logo'), site.name);
  assert.is(r.text('.footer-tagline'), 'Guiding your music through smart business');
  const socials = r.$$('.socials a');
  assert.is(socials.length, 4);
  assert.equal(
    socials.map((a) => a.getAttribute('aria-label')),
    content.company.socials.map((s) => s.label),
  );
  assert.equal(
    socials.map((a) => a.getAttribute('href')),
    content.company.socials.map((s) => s.href),
  );
});

footer('Quick Links go to Home, About Us, Services and FAQ of the home page', () => {
  const r = renderFooter();
  assert.is(r.text('.footer-links h2'), 'Quick Links');
  assert.equal(linksOf(r.$('.footer-links')), [
    ['Home', '/'],
    ['About Us', '/#about'],
    ['Services', '/#services'],
    ['FAQ', '/#faq'],
  ]);
});

footer('the Contact column is #contact, with the e-mail and the Orlando address', () => {
  const r = renderFooter();
  const contact = r.$('#contact');
  assert.ok(textOf(contact).startsWith('Contact'));
  assert.equal(linksOf(contact), [[content.company.email, `mailto:${content.company.email}`]]);
  assert.match(textOf(contact.querySelector('address')), /Orlando, FL/);
});

footer('has the Stay Connected form with one required e-mail field', () => {
  const r = renderFooter();
  const form = r.$('form.newsletter');
  assert.is(textOf(r.document.getElementById(form.getAttribute('aria-labelledby')!)), 'Stay Connected');
  const inputs = [...form.querySelectorAll('input')];
  assert.is(inputs.length, 1);
  assert.is(inputs[0]!.getAttribute('type'), 'email');
  assert.ok(inputs[0]!.hasAttribute('required'));
  assert.is(textOf(r.$(`label[for="${inputs[0]!.id}"]`)), copy.footer.newsletter.label);
  assert.is(textOf(form.querySelector('button[type="submit"]')), 'Subscribe');
});

footer('prints the build year in the copyright line, and Privacy Policy and Terms of Service', () => {
  const r = renderFooter(2031);
  assert.is(r.text('.copyright'), `© 2031 ${site.name}. All rights reserved.`);
  assert.equal(
    linksOf(r.$('.footer-bottom nav')).map(([t]) => t),
    ['Privacy Policy', 'Terms of Service'],
  );
});

footer.run();
