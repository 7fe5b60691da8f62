// The site's settings: who the company is, where the site lives, and how it is built and deployed.
import { defineConfig } from './src/config.ts';

export default defineConfig({
  site: {
    // DEPLOYER: change. An invented company name, e-mail, address and URL: replace them with your own.
    name: 'Soundmark Music Group',
    url: 'https://www.soundmarkmusicgroup.com',
    description: 'Music business services for independent artists, musicians and producers: record label services, production, artist development, publishing, consulting and video.',
    lang: 'en',
    email: 'info@soundmarkmusicgroup.com',
    address: {
      street: '220 N Orange Ave, Suite 400',
      city: 'Orlando',
      region: 'FL',
      postalCode: '32801',
      country: 'US',
    },
    // DEPLOYER: change. Placeholder profile links: point them at your own profiles.
    socials: [
      { label: 'Instagram', href: 'https://www.instagram.com/', icon: 'instagram' },
      { label: 'Facebook', href: 'https://www.facebook.com/', icon: 'facebook' },
      { label: 'YouTube', href: 'https://www.youtube.com/', icon: 'youtube' },
      { label: 'X', href: 'https://x.com/', icon: 'x' },
    ],
    themeDefault: 'dark',
    themeStorageKey: 'vite-ui-theme',
    themeColor: { dark: '#0a0a0a', light: '#ffffff' },
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
