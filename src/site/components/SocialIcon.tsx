// Simple line drawings of the social platforms (lucide-react 1.x ships no brand icons), in lucide's 24 px style.
import type { SocialIconName } from '../../../content/schema.ts';

const drawings: Record<SocialIconName, string[]> = {
  instagram: [
    'M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5z',
    'M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0z',
    'M17.5 6.5h.01',
  ],
  facebook: ['M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z'],
  youtube: ['M6 5h12a4 4 0 0 1 4 4v6a4 4 0 0 1-4 4H6a4 4 0 0 1-4-4V9a4 4 0 0 1 4-4z', 'm10 9 5 3-5 3z'],
  x: ['M4 4h4.5L20 20h-4.5z', 'M20 4l-6.6 7.2M4 20l6.6-7.2'],
  tiktok: ['M14 3v11.5a3.5 3.5 0 1 1-3.5-3.5', 'M14 3c.4 2.6 2.4 4.6 5 5'],
  linkedin: [
    'M5 2h14a3 3 0 0 1 3 3v14a3 3 0 0 1-3 3H5a3 3 0 0 1-3-3V5a3 3 0 0 1 3-3z',
    'M7 10v7M7 7v.01M11 17v-7M11 13a3 3 0 0 1 6 0v4',
  ],
  spotify: [
    'M22 12a10 10 0 1 1-20 0 10 10 0 0 1 20 0z',
    'M7 9.5c3.5-1 7-.7 10 1M7.5 13c3-.8 5.7-.5 8 .8M8 16.3c2.3-.5 4.3-.3 6 .6',
  ],
};

export function SocialIcon({ name, size = 18 }: { name: SocialIconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {drawings[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
