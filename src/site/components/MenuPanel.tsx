// The menu without JavaScript: a panel shown while it is the URL's :target (full-screen under 768 px, a drawer from 768 px).
import type { NavLink } from '../../../content/schema.ts';
import X from 'lucide-react/icons/x';
import { MENU_BUTTON_ID, MENU_ID } from './SiteMenu.tsx';
import { MenuLinks } from './MenuLinks.tsx';

export interface MenuPanelProps {
  items: NavLink[];
  cta: NavLink;
  path: string;
  labels: { open: string; close: string; nav: string };
}

/**
 * Server markup only. The "Menu" link (SiteMenu.tsx, before hydration) targets it; choosing a link changes the target,
 * which closes it; the close link targets the menu button in the sticky header, so the page does not jump and
 * focus returns there (styles/header.css). Once the menu is interactive nothing links here any more.
 */
export function MenuPanel({ items, cta, path, labels }: MenuPanelProps) {
  return (
    <nav className="menu-panel" id={MENU_ID} aria-label={labels.nav}>
      <div className="menu-top">
        <p className="menu-title">{labels.open}</p>
        <a className="menu-close" href={`#${MENU_BUTTON_ID}`} aria-label={labels.close}>
          <X size={22} />
        </a>
      </div>
      <MenuLinks items={items} cta={cta} path={path} />
    </nav>
  );
}
