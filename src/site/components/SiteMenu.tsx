// The header's "Menu" control: a link to the no-JS panel in the server HTML, a button opening the menu dialog once hydrated.
import Menu from 'lucide-react/icons/menu';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { NavLink } from '../../../content/schema.ts';
import { useHydrated } from '../lib/hooks.ts';

export interface SiteMenuProps {
  items: NavLink[];
  cta: NavLink;
  /** The page the menu is on: anchors of the home page become "/#about" elsewhere. */
  path: string;
  labels: { open: string; close: string; nav: string };
}

/** The no-JS panel (MenuPanel.tsx). */
export const MENU_ID = 'site-menu';
export const MENU_DIALOG_ID = 'site-menu-dialog';
export const MENU_BUTTON_ID = 'menu-button';

// The dialog (and @headlessui/react with it) is a chunk of its own, fetched when the visitor first reaches for the
// menu: pointer over or focus on the button starts the download, the click waits for it if need be.
const loadMenuDialog = () => import('./MenuDialog.tsx');
const MenuDialog = lazy(() => loadMenuDialog().then((module) => ({ default: module.MenuDialog })));
const preload = () => void loadMenuDialog();

export function SiteMenu({ items, cta, path, labels }: SiteMenuProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  // Set on first open; the dialog then stays mounted (closed), so opening it again needs no download.
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  // Headless UI gives focus back to what had it before the dialog opened, but knows that only from a focus history
  // its chunk starts keeping once loaded, i.e. after the first click. So the button takes focus back itself.
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus({ preventScroll: true });
    wasOpen.current = open;
  }, [open]);
  const content = (
    <>
      <Menu size={20} />
      <span className="menu-button-label">{labels.open}</span>
    </>
  );

  if (!hydrated) {
    return (
      <a className="menu-button" id={MENU_BUTTON_ID} href={`#${MENU_ID}`} aria-controls={MENU_ID}>
        {content}
      </a>
    );
  }
  return (
    <>
      <button
        ref={button}
        type="button"
        className="menu-button"
        id={MENU_BUTTON_ID}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? MENU_DIALOG_ID : undefined}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {content}
      </button>
      {used && (
        <Suspense fallback={null}>
          <MenuDialog
            id={MENU_DIALOG_ID}
            open={open}
            onClose={() => setOpen(false)}
            items={items}
            cta={cta}
            path={path}
            labels={labels}
          />
        </Suspense>
      )}
    </>
  );
}
