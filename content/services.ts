// The six services, in the order the site shows them. Exactly six, five bullets each (content/schema.ts checks).
import type { ContentInput } from './schema.ts';

export default [
  {
    id: 'service-record-label',
    title: 'RECORD LABEL SERVICES',
    mobileTitle: 'LABEL SERVICES',
    bullets: ['Distribution', 'Marketing & Promo', 'Artist Representation', 'Branding & Packaging', 'Artist Touring'],
    icon: 'disc',
  },
  {
    id: 'service-music-production',
    title: 'MUSIC PRODUCTION',
    bullets: ['Beat Creation', 'Song Arrangement', 'Mixing And Mastering', 'Artist Collaboration', 'Album Production'],
    icon: 'sliders',
  },
  {
    id: 'service-artist-development',
    title: 'ARTIST DEVELOPMENT',
    bullets: ['Vocal Coaching', 'Stage Presence Training', 'Personal Branding', 'Career Strategy', 'Social Media'],
    icon: 'mic',
  },
  {
    id: 'service-music-publishing',
    title: 'MUSIC PUBLISHING',
    bullets: [
      'Rights Registration',
      'Copyright Protection',
      'Licensing Opportunities',
      'Royalties Collection',
      'Publishing Management',
    ],
    icon: 'copyright',
  },
  {
    id: 'service-business-consulting',
    title: 'BUSINESS CONSULTING',
    bullets: [
      'Contract Negotiation',
      'Financial Management',
      'Revenue Expansion',
      'Intellectual Property',
      'Industry Strategy',
    ],
    icon: 'briefcase',
  },
  {
    id: 'service-video-production',
    title: 'VIDEO PRODUCTION',
    bullets: ['Music Video Creation', 'Promo Videos', 'Filming And Editing', 'Creative Direction', 'Storytelling'],
    icon: 'clapperboard',
  },
] satisfies ContentInput['services'];
