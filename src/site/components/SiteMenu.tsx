// The header menu: a "Menu" control and the panel of links (full-screen under 768 px, a right-side drawer from 768 px).
import { Menu, X } from 'lucide-react';
import type { NavLink } from '../../../content/schema.ts';
import { pageHref } from '../lib/href.ts';
import { ButtonLink } from './ButtonLink.tsx';

export interface SiteMenuProps {
  items: NavLink[];
  cta: NavLink;
  /** The page the menu is on: anchors of the home page become "/#about" elsewhere. */
  path: string;
  labels: { open: string; close: string; nav: string };
}

export const MENU_ID = 'site-menu';
export const MENU_BUTTON_ID = 'menu-button';

/**
 * Works without JavaScript: the "Menu" control is a link to the panel, and the panel shows while it is the
 * URL's :target (styles/header.css). Choosing a link changes the target, which closes the panel; the close
 * control targets the menu button in the sticky header, so the page does not jump and focus returns there.
 * The interactive version (a dialog, next issue) renders the same markup on the server.
 */
export function SiteMenu({ items, cta, path, labels }: SiteMenuProps) {
  return (
    <>
      <a className="menu-button" id={MENU_BUTTON_ID} href={`#${MENU_ID}`} aria-controls={MENU_ID}>
        <Menu size={20} />
        <span className="menu-button-label">{labels.open}</span>
      </a>
      <nav className="menu-panel" id={MENU_ID} aria-label={labels.nav}>
        <div className="menu-top">
          <p className="menu-title">{labels.open}</p>
          <a className="menu-close" href={`#${MENU_BUTTON_ID}`} aria-label={labels.close}>
            <X size={22} />
          </a>
        </div>
        <ul className="menu-list">
          {items.map((item) => (
            <li key={item.id}>
              <a href={pageHref(item.href, path)}>{item.label}</a>
            </li>
          ))}
        </ul>
        <ButtonLink className="menu-cta" href={pageHref(cta.href, path)} size="lg">
          {cta.label}
        </ButtonLink>
      </nav>
    </>
  );
}
