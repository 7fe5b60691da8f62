// Every text of the site that is not a service, a question, a partner or a link: section by section, in page order.
// "{company}", "{email}" and "{year}" are filled in from site.config.ts when the page renders.
import type { ContentInput } from './schema.ts';

export default {
  meta: {
    home: {
      title: 'Music Business Services for Independent Artists',
      description:
        'Record label services, music production, artist development, publishing, business consulting and video production for independent artists, musicians and producers.',
    },
    contact: {
      title: 'Contact Us',
      description: 'Tell us about your music and what you need. Our team will get back to you as soon as possible.',
    },
    notFound: {
      title: 'Page Not Found',
      description: 'The page you are looking for does not exist.',
    },
  },
  ui: {
    skipLink: 'Skip to content',
    homeLink: '{company}, home',
    mainNav: 'Main',
    menuOpen: 'Menu',
    menuClose: 'Close menu',
    scrollToTop: 'Scroll to top',
    legalNav: 'Legal',
    socialNav: 'Social media',
    socialHint: 'Follow us on {platform}',
    theme: {
      label: 'Theme',
      hint: 'Choose a light or dark theme, or follow your device',
      light: 'Light',
      dark: 'Dark',
      system: 'System',
    },
  },
  hero: {
    badge: 'Music Business Services',
    title: { lines: ['MUSIC IS THE ART,', 'YOUR SUCCESS IS OUR BUSINESS'], accent: 1 },
    text: 'We guide independent artists, musicians and producers with expertise in music production, artist management, music publishing and more, so you can focus on the music while we take care of the business behind it.',
    primary: { label: 'Get Started', href: '/contact' },
    secondary: { label: 'Book an Appointment', href: '/contact' },
  },
  about: {
    badge: 'About Us',
    title: { lines: ['WHO WE ARE'] },
    text: 'We are a music business company built for independent artists. We empower artists to own their sound, develop talent with hands-on coaching, protect the intellectual property behind every song and build careers that last well beyond a single release.',
    pillars: [
      { id: 'empower', title: 'Empower Artists', text: 'Your music, your vision, your decisions.' },
      { id: 'develop', title: 'Develop Talent', text: 'Coaching and strategy at every stage.' },
      { id: 'protect', title: 'Protect Your Rights', text: 'Registered, licensed and paid for.' },
      { id: 'build', title: 'Build Careers', text: 'Plans that grow with your audience.' },
    ],
    primary: { label: 'Learn More', href: '#services' },
    secondary: { label: 'Book an Appointment', href: '#contact' },
  },
  services: {
    badge: 'Our Services',
    title: { lines: ['WHAT WE DO'] },
    intro:
      'Six disciplines under one roof, so every part of your career, from the studio to the contract, is handled by people who know the business.',
    cardLink: { label: 'Learn more', href: '#contact' },
    more: { label: 'Contact Us', href: '#contact' },
  },
  partners: {
    badge: 'Our Network',
    title: { lines: ['INDUSTRY NETWORKS', 'YOU CAN TRUST'], accent: 1 },
    intro:
      'We work with trusted names in streaming, distribution and performing rights, so your music gets the best opportunities, protection and support.',
    listLabel: 'Our partners',
    pause: 'Pause the logo animation',
  },
  faq: {
    badge: 'Questions & Answers',
    title: { lines: ['Frequently Asked Questions'] },
    intro: 'Get answers to some of the most common questions artists have about navigating the music industry.',
    more: 'Still have a question? Our team is happy to help.',
    moreLink: { label: 'Ask Us Directly', href: '#contact' },
  },
  banner: {
    title: { lines: ['READY TO GET STARTED'] },
  },
  cta: {
    badge: 'Take Action',
    title: { lines: ['ELEVATE YOUR SOUND', 'AMPLIFY YOUR REACH'], accent: 1 },
    text: 'Whether you are releasing your first single or planning your next tour, our team is ready to help you protect your work, reach new fans and build a career on your own terms.',
    contact: { label: 'Contact Us', href: '/contact' },
    book: { label: 'Book Appointment', href: '/contact' },
  },
  footer: {
    tagline: 'Guiding your music through smart business',
    quickLinks: 'Quick Links',
    contact: 'Contact',
    emailLabel: 'Email',
    addressLabel: 'Address',
    newsletter: {
      title: 'Stay Connected',
      text: 'Release tips, industry news and opportunities for artists, straight to your inbox.',
      label: 'Email address',
      placeholder: 'you@example.com',
      submit: 'Subscribe',
      toast: { title: 'Thank you for subscribing!', description: "You've been added to our newsletter." },
    },
    copyright: '© {year} {company}. All rights reserved.',
  },
  contact: {
    title: { lines: ['CONTACT US'] },
    text: 'Have questions or want to work with us? Fill out the form below and our team will get back to you as soon as possible.',
    formLabel: 'Contact form',
    fields: {
      firstName: { label: 'First Name', placeholder: 'Jordan' },
      lastName: { label: 'Last Name', placeholder: 'Rivers' },
      email: { label: 'Email', placeholder: 'you@example.com' },
      phoneNumber: { label: 'Phone Number', placeholder: '(407) 555-0123' },
      message: { label: 'Message', placeholder: 'Tell us about your music and how we can help.' },
      fileUpload: { label: 'Attach a File', hint: 'Optional: one file, such as a demo, press kit or contract.' },
    },
    terms: 'I agree to the Terms & Conditions and to receive email and SMS communications.',
    submit: 'Send Message',
    sending: 'Sending...',
    alternative: 'Prefer e-mail? Write to us at {email}.',
    toasts: {
      termsMissing: { title: 'Terms not accepted', description: 'Please accept the terms and conditions to proceed.' },
      sent: { title: 'Message sent!', description: "We'll get back to you as soon as possible." },
    },
  },
  notFound: {
    code: '404',
    title: 'Oops! Page not found',
    text: 'The page you are looking for may have moved, or the link may be mistyped.',
    home: { label: 'Return to Home', href: '/' },
    log: '404 Error: User attempted to access non-existent route:',
  },
  toasts: {
    alertsLabel: 'Alerts',
    dismiss: 'Dismiss notification',
  },
} satisfies ContentInput['copy'];
