// The header menu (sections of the home page) and the footer's link lists.
import type { ContentInput } from './schema.ts';

export default {
  // Anchors of the home page; on other pages the site links them as "/#about" etc.
  menu: [
    { id: 'home', label: 'Home', href: '#home' },
    { id: 'about', label: 'About', href: '#about' },
    { id: 'services', label: 'Services', href: '#services' },
    { id: 'resources', label: 'Resources', href: '#partners' },
    { id: 'faq', label: 'FAQ', href: '#faq' },
  ],
  menuCta: { id: 'book-appointment', label: 'Book Appointment', href: '#cta' },
  quickLinks: [
    { id: 'home', label: 'Home', href: '/' },
    { id: 'about', label: 'About Us', href: '/#about' },
    { id: 'services', label: 'Services', href: '/#services' },
    { id: 'faq', label: 'FAQ', href: '/#faq' },
  ],
  // DEPLOYER: change. "#" is a placeholder until the policy pages exist; point these at them (e.g. "/privacy").
  legal: [
    { id: 'privacy', label: 'Privacy Policy', href: '#' },
    { id: 'terms', label: 'Terms of Service', href: '#' },
  ],
} satisfies ContentInput['navigation'];
