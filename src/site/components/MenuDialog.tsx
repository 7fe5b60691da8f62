// The menu: a <dialog> in the server HTML, opened as a modal by the inline menu script (src/site/inline/menu.ts) at
// the first tap; a right-side drawer from 768 px and a full-screen overlay below (styles/header.css). Without
// JavaScript it shows as the URL's :target, opened by the menu link, closed by its close link.
import * as xIcon from 'lucide-react/icons/x';
import { MENU_ID, MENU_LINK_ID, type SiteMenuProps } from './SiteMenu.tsx';
import { MenuLinks } from './MenuLinks.tsx';
import { lucideIcon } from './lucideIcon.ts';

const X = lucideIcon(xIcon);

export type MenuDialogProps = SiteMenuProps;

export function MenuDialog({ items, cta, path, labels }: MenuDialogProps) {
  const title = `${MENU_ID}-title`;
  return (
    <dialog className="menu-dialog" id={MENU_ID} aria-labelledby={title}>
      <nav className="menu-panel" aria-label={labels.nav}>
        <div className="menu-top">
          <p className="menu-title" id={title}>
            {labels.open}
          </p>
          <button type="button" className="menu-close" aria-label={labels.close}>
            <X size={22} />
          </button>
          <noscript>
            <a className="menu-close" href={`#${MENU_LINK_ID}`} aria-label={labels.close}>
              <X size={22} />
            </a>
          </noscript>
        </div>
        <MenuLinks items={items} cta={cta} path={path} />
      </nav>
    </dialog>
  );
}
