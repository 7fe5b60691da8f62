// The seven questions artists ask most, in the spec's order of topics; each answer names the service that helps.
import type { ContentInput } from './schema.ts';

export default [
  {
    id: 'faq-contracts',
    question: 'How can I avoid signing a bad contract?',
    answer:
      'Never sign anything you do not fully understand, and never sign under time pressure. Our Business Consulting team reviews record, management, publishing and producer agreements line by line, explains what each clause means for your rights and your income, and negotiates better terms before you commit.',
  },
  {
    id: 'faq-getting-paid',
    question: 'How do I make sure I get paid for my music?',
    answer:
      'Every stream, radio play and live performance of your song earns royalties, but only if your songs are registered correctly. Through our Music Publishing services we register your works with performing-rights organizations and collection societies, keep your catalogue in order and collect the royalties you have earned.',
  },
  {
    id: 'faq-standing-out',
    question: 'How can I stand out in such a crowded industry?',
    answer:
      'Talent gets you noticed; a clear identity keeps people listening. Our Artist Development program sharpens your vocals and stage presence, defines your personal brand and builds a career and social media strategy around what makes you different.',
  },
  {
    id: 'faq-sound-quality',
    question: 'How do I get a professional sound for my releases?',
    answer:
      'Great records start with great production. Our Music Production team works with you from beat creation and song arrangement through mixing and mastering, so your tracks are ready for streaming playlists, radio and the stage.',
  },
  {
    id: 'faq-career-management',
    question: 'How can I manage my career without feeling overwhelmed?',
    answer:
      'You do not have to handle contracts, money and strategy on your own. Our Business Consulting service gives you a clear plan and helps with financial management, new revenue streams and industry strategy, so you can spend your time making music.',
  },
  {
    id: 'faq-protecting-music',
    question: 'How do I protect my music from misuse or theft?',
    answer:
      'Copyright protects your work from the moment you create it, and registering it makes your rights far easier to enforce. Our Music Publishing and Legal Guidance services take care of copyright registration and licensing, and help you act quickly when someone uses your music without permission.',
  },
  {
    id: 'faq-getting-heard',
    question: 'How do I get my music heard by more people?',
    answer:
      'Releasing a song is only the first step. Our Record Label services distribute your music to all the major streaming platforms and stores, then back every release with marketing and promotion built to reach new listeners.',
  },
] satisfies ContentInput['faq'];
