// The shape of the site's content: one zod schema per content file, with messages that say what to fix.
import { z } from 'zod';

// Messages are read after the field's path, e.g. `content/services.ts: services[5].bullets has 4 items; ...`,
// so each one starts with what is wrong and ends with what to do.

function text(example: string) {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `is missing; add it, e.g. "${example}".` : `must be text, e.g. "${example}".`,
    })
    .trim()
    .min(1, { error: `is empty; write the text shown on the site, e.g. "${example}".` });
}

/** An object that rejects unknown fields (so a misspelt field name is reported, not silently ignored). */
function obj<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.map((k) => `"${k}"`).join(', ');
        return `has unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}; remove ${issue.keys.length > 1 ? 'them' : 'it'} or check the spelling.`;
      }
      return issue.input === undefined ? 'is missing; add it.' : 'must be an object ({ ... }).';
    },
  });
}

const id = z
  .string({ error: 'is missing; give every item an id such as "service-music-production".' })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: (issue) =>
      `is "${String(issue.input)}"; ids are lower-case words joined by "-", e.g. "service-music-production".`,
  });

/** An in-page anchor ("#faq"), a path of this site ("/contact", "/#about"), an http(s) URL, or "#" for a link that has no page yet. */
export const href = z
  .string({ error: 'is missing; add a link target such as "#faq", "/contact" or "https://...".' })
  .refine(
    (value) =>
      value === '#' ||
      /^#[A-Za-z][\w-]*$/.test(value) ||
      /^\/(?!\/)[^\s]*$/.test(value) ||
      /^https?:\/\/[^\s/]+\.[^\s]+$/.test(value) ||
      /^mailto:\S+@\S+$/.test(value),
    {
      error: (issue) =>
        `is "${String(issue.input)}", which is not a link; use an anchor ("#faq"), a site path ("/contact", "/#about") or an http(s) URL.`,
    },
  );

const link = obj({ id, label: text('About Us'), href });

/** Fails when two items of a list share an id; the issue points at the second one. */
function uniqueIds<T extends { id: string }>(items: T[], ctx: z.core.$RefinementCtx<T[]>) {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const first = seen.get(item.id);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'id'],
        message: `repeats the id "${item.id}" of item ${first}; every id must be unique.`,
        input: item.id,
      });
    } else seen.set(item.id, index);
  });
}

function exactly<T extends z.ZodType>(item: T, count: number, noun: string, where: string) {
  return z.array(item, { error: `must be a list of ${noun}.` }).length(count, {
    error: (issue) =>
      `has ${Array.isArray(issue.input) ? issue.input.length : 'a different number of'} ${noun}; ${where} exactly ${count}. Add or remove ${noun}.`,
  });
}

/**
 * A display heading split into lines; `accent` is the index of the line drawn in the accent colour.
 * The lines are joined with a space, so the heading reads as one sentence ("MUSIC IS THE ART, YOUR SUCCESS ...").
 */
const title = obj({
  lines: z.array(text('WHAT WE DO')).min(1, { error: 'has no lines; a heading needs at least one line of text.' }),
  accent: z.number().int().nonnegative().optional(),
}).refine((t) => t.accent === undefined || t.accent < t.lines.length, {
  error: 'has an accent index past its last line; use the index of one of its lines (0 is the first) or remove accent.',
  path: ['accent'],
});

const section = obj({
  /** Small label above the heading. */
  badge: text('Our Services').optional(),
  title,
  intro: text('We help artists...').optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// Services

/** Icons a service may use: each is drawn by lucide-react (see src/site/components/ServiceIcon.tsx). */
export const serviceIcons = [
  'disc',
  'sliders',
  'mic',
  'copyright',
  'briefcase',
  'clapperboard',
  'music',
  'headphones',
  'trending-up',
  'file-music',
] as const;

const service = obj({
  id: id.refine((value) => value.startsWith('service-'), {
    error: (issue) => `is "${String(issue.input)}"; service ids start with "service-".`,
  }),
  title: text('MUSIC PRODUCTION'),
  /** Shorter title shown under 768 px when the full one is long. */
  mobileTitle: text('LABEL SERVICES').optional(),
  bullets: z.array(text('Mixing And Mastering')).length(5, {
    error: (issue) =>
      `has ${Array.isArray(issue.input) ? issue.input.length : 'a different number of'} items; each service needs exactly 5.`,
  }),
  icon: z.enum(serviceIcons, {
    error: `is not a known icon; use one of ${serviceIcons.map((i) => `"${i}"`).join(', ')}.`,
  }),
});

export const servicesSchema = exactly(service, 6, 'services', 'the site shows').superRefine(uniqueIds);

// ---------------------------------------------------------------------------------------------------------------
// FAQ

const faqEntry = obj({
  id,
  question: text('How do I get paid for my music?'),
  answer: text('Register your songs with ...'),
  /** A disabled entry is shown but cannot be opened (the keyboard skips it). */
  disabled: z.boolean().optional(),
});

export const faqSchema = exactly(faqEntry, 7, 'questions', 'the FAQ shows').superRefine(uniqueIds);

// ---------------------------------------------------------------------------------------------------------------
// Partners

const partner = obj({
  id,
  name: text('Streamwave'),
  /** File in public/partners/, drawn as a one-colour (black) wordmark: the site inverts it in the dark theme. */
  logo: z.string().regex(/^\/partners\/[\w.-]+\.(svg|png|webp)$/, {
    error: (issue) =>
      `is "${String(issue.input)}"; logos are files in public/partners/, written as "/partners/name.svg".`,
  }),
  /** Intrinsic size of the logo file, for the <img> width and height (no layout shift). */
  width: z.number().int().positive({ error: "must be the logo file's width in pixels, e.g. 240." }),
  height: z.number().int().positive({ error: "must be the logo file's height in pixels, e.g. 120." }),
  /** The partner's site; without it the logo is shown without a link. */
  href: href.optional(),
});

export const partnersSchema = exactly(partner, 7, 'partners', 'the logo strip shows').superRefine(uniqueIds);

// ---------------------------------------------------------------------------------------------------------------
// Navigation

const anchorLink = link.refine((l) => /^#[A-Za-z]/.test(l.href), {
  error: 'must link to a section of the home page, e.g. "#about"; other pages turn it into "/#about" themselves.',
  path: ['href'],
});

function linkList(minimum: number, what: string) {
  return z
    .array(link)
    .min(minimum, { error: `has no ${what}; add at least ${minimum}.` })
    .superRefine(uniqueIds);
}

export const navigationSchema = obj({
  /** The header menu: sections of the home page, in page order. */
  menu: z
    .array(anchorLink)
    .min(1, { error: 'has no menu items; add the sections of the home page.' })
    .superRefine(uniqueIds),
  /** The menu's call to action ('Book Appointment'). */
  menuCta: anchorLink,
  /** Footer 'Quick Links'. */
  quickLinks: linkList(1, 'quick links'),
  /** Footer bottom bar: Privacy Policy, Terms of Service. */
  legal: linkList(1, 'legal links'),
});

// ---------------------------------------------------------------------------------------------------------------
// Copy: every other text of the site

const button = obj({ label: text('Get Started'), href });

const field = obj({
  label: text('First Name'),
  placeholder: text('Jane').optional(),
});

const meta = obj({ title: text('Contact Us'), description: text('Tell us about your music...') });

/** A toast: a short title and one sentence. */
const toastText = obj({
  title: text('Message sent!'),
  description: text("We'll get back to you as soon as possible."),
});

export const copySchema = obj({
  /** Titles and descriptions of each page; "{company}" is replaced by the company name. */
  meta: obj({ home: meta, contact: meta, notFound: meta }),
  /** Accessible names and small texts of the page frame. */
  ui: obj({
    skipLink: text('Skip to content'),
    homeLink: text('{company}, home'),
    mainNav: text('Main'),
    menuOpen: text('Menu'),
    menuClose: text('Close menu'),
    scrollToTop: text('Scroll to top'),
    legalNav: text('Legal'),
    socialNav: text('Social media'),
    /** Tooltip (and accessible description) of each social link; "{platform}" is the link's label. */
    socialHint: text('Follow us on {platform}'),
    /** The theme switch in the header: its name, its tooltip, and the name of each choice. */
    theme: obj({
      label: text('Theme'),
      hint: text('Choose a light or dark theme, or follow your device'),
      light: text('Light'),
      dark: text('Dark'),
      system: text('System'),
    }),
  }),
  hero: section.extend({ text: text('We guide artists...'), primary: button, secondary: button }),
  about: section.extend({
    text: text('We empower artists...'),
    /** Short points beside the text. */
    pillars: z
      .array(obj({ id, title: text('Develop talent'), text: text('Coaching and strategy at every stage.') }))
      .min(2, { error: 'has fewer than 2 pillars; add at least 2.' })
      .max(4, { error: 'has more than 4 pillars; the layout holds at most 4.' })
      .superRefine(uniqueIds),
    primary: button,
    /** The outline button shown on desktop only. */
    secondary: button,
  }),
  services: section.extend({ cardLink: button, more: button }),
  partners: section.extend({
    /** Accessible name of the logo list. */
    listLabel: text('Our partners'),
    /** The control that stops the moving strip. */
    pause: text('Pause the logo animation'),
  }),
  faq: section.extend({ more: text('Still have a question?'), moreLink: button }),
  banner: obj({ title }),
  cta: section.extend({
    /** Hidden in compact mode. */
    text: text('Tell us where you want your music to go...'),
    /** 'Contact Us': hidden in compact mode. */
    contact: button,
    /** 'Book Appointment': always shown. */
    book: button,
  }),
  footer: obj({
    tagline: text('Guiding your music through smart business'),
    quickLinks: text('Quick Links'),
    contact: text('Contact'),
    emailLabel: text('Email'),
    addressLabel: text('Address'),
    newsletter: obj({
      title: text('Stay Connected'),
      text: text('News, tips and opportunities...'),
      label: text('Email address'),
      placeholder: text('you@example.com'),
      submit: text('Subscribe'),
      /** The toast once subscribed. */
      toast: toastText,
    }),
    /** "{year}" and "{company}" are filled in. */
    copyright: text('© {year} {company}. All rights reserved.').refine((v) => v.includes('{year}'), {
      error: 'has no "{year}"; the copyright line must show the current year.',
    }),
  }),
  contact: obj({
    title,
    text: text('Have questions or want to work with us? ...'),
    formLabel: text('Contact form'),
    fields: obj({
      firstName: field,
      lastName: field,
      email: field,
      phoneNumber: field,
      message: field,
      fileUpload: field.extend({ hint: text('Optional: a demo, press kit or contract.') }),
    }),
    /** The consent text of the terms checkbox. */
    terms: text('I agree to the Terms & Conditions and to receive email and SMS communications.'),
    submit: text('Send Message'),
    sending: text('Sending...'),
    /** Shown below the form; "{email}" is filled in. */
    alternative: text('Prefer e-mail? Write to {email}.'),
    /** The destructive toast when the terms box is not ticked, and the toast once the message is sent. */
    toasts: obj({ termsMissing: toastText, sent: toastText }),
  }),
  notFound: obj({
    code: text('404'),
    title: text('Oops! Page not found'),
    text: text('The page you are looking for does not exist or has moved.'),
    home: button,
    /** Written to the browser console with the path the visitor asked for. */
    log: text('404 Error: User attempted to access non-existent route:'),
  }),
  /** The two toast regions (the Notifications region is named by NOTIFICATIONS_TOASTER.label in src/site/constants.ts). */
  toasts: obj({
    /** Accessible name of the contact form's toast viewport. */
    alertsLabel: text('Alerts'),
    /** Accessible name of each toast's close button. */
    dismiss: text('Dismiss notification'),
  }),
});

// ---------------------------------------------------------------------------------------------------------------
// Error screen: its own small file, because the browser bundle of every island imports it (src/island.tsx)

export const errorsSchema = obj({
  title: text('Unexpected Application Error!'),
  text: text('Something went wrong while showing this part of the page.'),
  stack: text('Stack trace'),
});

// ---------------------------------------------------------------------------------------------------------------
// The company (contact column, contact page, Organization JSON-LD) and the colour theme (head script, theme switch)

/** The platforms SocialIcon can draw. */
export const socialIcons = ['instagram', 'facebook', 'youtube', 'x', 'tiktok', 'linkedin', 'spotify'] as const;

export const companySchema = obj({
  email: z.email({
    error: (issue) =>
      issue.input === undefined
        ? 'is missing; add it, e.g. "info@example.com".'
        : 'must be an e-mail address such as "info@example.com".',
  }),
  phone: text('+1 407 555 0100').optional(),
  /** Postal address: the footer's contact column and the Organization JSON-LD. */
  address: obj({
    street: text('220 N Orange Ave, Suite 400'),
    city: text('Orlando'),
    region: text('FL'),
    postalCode: text('32801'),
    country: text('US'),
  }),
  socials: z.array(
    obj({
      /** Accessible name of the icon link, e.g. "Instagram". */
      label: text('Instagram'),
      href,
      icon: z.enum(socialIcons, { error: `must be one of ${socialIcons.map((icon) => `"${icon}"`).join(', ')}.` }),
    }),
  ),
});

const themeChoice = z.enum(['dark', 'light', 'system'], { error: 'must be "dark", "light" or "system".' });

export const themeSchema = obj({
  /** Theme a first-time visitor sees; the template's <html class> must match it. */
  default: themeChoice,
  /** localStorage key that keeps the visitor's theme choice. */
  storageKey: text('vite-ui-theme'),
  /** <meta name="theme-color"> for each scheme. */
  colors: obj({ dark: text('#0a0a0a'), light: text('#ffffff') }),
});

export const collections = {
  services: { file: 'services.ts', schema: servicesSchema },
  faq: { file: 'faq.ts', schema: faqSchema },
  partners: { file: 'partners.ts', schema: partnersSchema },
  navigation: { file: 'navigation.ts', schema: navigationSchema },
  copy: { file: 'copy.ts', schema: copySchema },
  errors: { file: 'errors.ts', schema: errorsSchema },
  company: { file: 'company.ts', schema: companySchema },
  theme: { file: 'theme.ts', schema: themeSchema },
};

export type Content = { [K in keyof typeof collections]: z.output<(typeof collections)[K]['schema']> };
export type ContentInput = { [K in keyof typeof collections]: z.input<(typeof collections)[K]['schema']> };

export type Service = Content['services'][number];
export type FaqEntry = Content['faq'][number];
export type Partner = Content['partners'][number];
export type Navigation = Content['navigation'];
export type NavLink = Navigation['menu'][number];
export type Copy = Content['copy'];
export type Title = Copy['banner']['title'];
export type ButtonCopy = Copy['hero']['primary'];
export type Company = Content['company'];
export type Theme = Content['theme'];
export type SocialIconName = (typeof socialIcons)[number];
export type ServiceIconName = (typeof serviceIcons)[number];
