// What site-gen needs to know about this site: where it lives, its name and language, and how it is built and deployed.
import { defineConfig } from 'site-gen-ssg';

export default defineConfig({
  site: {
    // DEPLOYER: change. An invented company name and URL: replace them with your own (contact details: content/company.ts).
    name: 'Soundmark Music Group',
    url: 'https://www.soundmarkmusicgroup.com',
    description:
      'Music business services for independent artists, musicians and producers: record label services, production, artist development, publishing, consulting and video.',
    lang: 'en',
    favicon: '/favicon.svg',
    ogImage: '/og-image.png',
  },
  build: {
    browserslist: ['defaults', 'not dead'],
    budgets: { html: 14 * 1024, js: 20 * 1024 }, // issue 11: JavaScript fetched before any interaction, 20 KB brotli at most
  },
  deploy: {
    prefix: '',
  },
});
