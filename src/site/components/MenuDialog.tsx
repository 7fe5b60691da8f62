// The interactive menu: a modal dialog (focus trapped, Escape and the close button close it, focus goes back to the
// menu button), a right-side drawer from 768 px and a full-screen overlay below (styles/header.css). Loaded on first use.
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import X from 'lucide-react/icons/x';
import { useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { goToHash, inPageHash } from '../lib/anchors.ts';
import { MenuLinks, type MenuLinksProps } from './MenuLinks.tsx';

export interface MenuDialogProps extends Omit<MenuLinksProps, 'onLinkClick'> {
  id: string;
  open: boolean;
  onClose: () => void;
  labels: { open: string; close: string; nav: string };
}

/**
 * A link to a section of this page closes the menu first, then goes there: following it while the dialog still
 * locks the page's scrolling would not move the page. Links to other pages navigate as usual.
 */
export function MenuDialog({ id, open, onClose, labels, ...links }: MenuDialogProps) {
  const pendingHash = useRef<string | null>(null);

  useEffect(() => {
    const hash = pendingHash.current;
    if (open || !hash) return;
    pendingHash.current = null;
    // Closing hands focus back to the menu button in a microtask; go to the section after that, so focus ends there.
    const timer = setTimeout(() => goToHash(hash), 0);
    return () => clearTimeout(timer);
  }, [open]);

  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const hash = inPageHash(event.nativeEvent, event.currentTarget);
    if (!hash) return;
    event.preventDefault();
    pendingHash.current = hash;
    onClose();
  };

  // Tab and Shift+Tab go round the dialog's controls. Headless UI would do this with two focusable, aria-hidden
  // "focus guard" buttons around the dialog, which axe rightly reports (aria-hidden-focus); styles/header.css hides
  // them, so the wrap is done here. Its focus lock and the inert page behind stay as they are.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab') return;
    const controls = [...event.currentTarget.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const first = controls[0];
    const last = controls.at(-1);
    const active = document.activeElement;
    const wrapTo = event.shiftKey
      ? active === first || active === event.currentTarget
        ? last
        : null
      : active === last
        ? first
        : null;
    if (!wrapTo) return;
    event.preventDefault();
    wrapTo.focus();
  };

  return (
    <Dialog id={id} open={open} onClose={onClose} onKeyDown={onKeyDown} className="menu-dialog">
      {/* Headless UI marks the open panel with data-open, which shows .menu-panel (styles/header.css). */}
      <DialogPanel className="menu-panel">
        <div className="menu-top">
          <DialogTitle className="menu-title">{labels.open}</DialogTitle>
          <button type="button" className="menu-close" aria-label={labels.close} onClick={onClose}>
            <X size={22} />
          </button>
        </div>
        <nav className="menu-nav" aria-label={labels.nav}>
          <MenuLinks {...links} onLinkClick={onLinkClick} />
        </nav>
      </DialogPanel>
    </Dialog>
  );
}
