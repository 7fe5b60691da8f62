// The company's contact details and social profiles: the footer, the contact page and the Organization JSON-LD.
import type { ContentInput } from './schema.ts';

export default {
  // DEPLOYER: change. An invented e-mail and address: replace them with your own.
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
} satisfies ContentInput['company'];
