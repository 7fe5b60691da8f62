// The header's "Menu" control, server markup: a button the inline menu script (src/site/inline/menu.ts) opens the
// menu dialog with; without JavaScript, a link to the dialog as the URL's :target (styles/header.css).
import * as menuIcon from 'lucide-react/icons/menu';
import type { NavLink } from '../../../content/schema.ts';
import { lucideIcon } from './lucideIcon.ts';

const Menu = lucideIcon(menuIcon);

export interface SiteMenuProps {
  items: NavLink[];
  cta: NavLink;
  /** The page the menu is on: anchors of the home page become "/#about" elsewhere. */
  path: string;
  labels: { open: string; close: string; nav: string };
}

/** The menu's <dialog> (MenuDialog.tsx). */
export const MENU_ID = 'site-menu';
export const MENU_BUTTON_ID = 'menu-button';
/** The no-JavaScript link: the dialog's close link targets it, so the page does not jump. */
export const MENU_LINK_ID = 'menu-link';

export function SiteMenu({ labels }: Pick<SiteMenuProps, 'labels'>) {
  const content = (
    <>
      <Menu size={20} />
      <span className="menu-button-label">{labels.open}</span>
    </>
  );
  return (
    <>
      <button
        type="button"
        className="menu-button"
        id={MENU_BUTTON_ID}
        aria-haspopup="dialog"
        aria-expanded="false"
        aria-controls={MENU_ID}
      >
        {content}
      </button>
      <noscript>
        <a className="menu-button" id={MENU_LINK_ID} href={`#${MENU_ID}`}>
          {content}
        </a>
      </noscript>
    </>
  );
}
