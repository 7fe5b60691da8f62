// The company's social profiles as icon links, each named by its platform, with a tooltip.
import type { Company } from '../../../content/schema.ts';
import { fill } from '../lib/text.ts';
import { SocialIcon } from './SocialIcon.tsx';
import { Tooltip } from './Tooltip.tsx';

export interface SocialLinksProps {
  items: Company['socials'];
  /** Accessible name of the list. */
  label: string;
  /** Tooltip and description of each link; "{platform}" is its label, e.g. "Follow us on {platform}". */
  hint: string;
}

export function SocialLinks({ items, label, hint }: SocialLinksProps) {
  if (items.length === 0) return null;
  return (
    <ul className="socials" aria-label={label}>
      {items.map((social) => (
        <li key={social.icon}>
          <Tooltip text={fill(hint, { platform: social.label })}>
            {(describedBy) => (
              <a href={social.href} aria-label={social.label} aria-describedby={describedBy} rel="me noopener">
                <SocialIcon name={social.icon} />
              </a>
            )}
          </Tooltip>
        </li>
      ))}
    </ul>
  );
}
