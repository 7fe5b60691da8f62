// The company's social profiles as icon links, each named by its platform.
import type { SiteInfo } from '../../config.ts';
import { SocialIcon } from './SocialIcon.tsx';

export function SocialLinks({ items, label }: { items: SiteInfo['socials']; label: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="socials" aria-label={label}>
      {items.map((social) => (
        <li key={social.icon}>
          <a href={social.href} aria-label={social.label} rel="me noopener">
            <SocialIcon name={social.icon} />
          </a>
        </li>
      ))}
    </ul>
  );
}
