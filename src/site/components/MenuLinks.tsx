// The menu's content: the home page sections, then the 'Book Appointment' call to action.
import type { MouseEventHandler } from 'react';
import type { NavLink } from '../../../content/schema.ts';
import { useBase } from 'site-gen-ssg';
import { pageHref } from '../lib/href.ts';
import { ButtonLink } from './ButtonLink.tsx';

export interface MenuLinksProps {
  items: NavLink[];
  cta: NavLink;
  /** The page the menu is on: anchors of the home page become "/#about" elsewhere. */
  path: string;
  onLinkClick?: MouseEventHandler<HTMLAnchorElement>;
}

export function MenuLinks({ items, cta, path, onLinkClick }: MenuLinksProps) {
  const base = useBase();
  return (
    <>
      <ul className="menu-list">
        {items.map((item) => (
          <li key={item.id}>
            <a href={pageHref(item.href, path, base)} onClick={onLinkClick}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
      <ButtonLink className="menu-cta" href={pageHref(cta.href, path, base)} size="lg" onClick={onLinkClick}>
        {cta.label}
      </ButtonLink>
    </>
  );
}
