// The header menu, inline in every page's <head>: the menu button opens the menu (a <dialog>, components/MenuDialog.tsx)
// as a modal at the first tap, before any script has downloaded (issue 23). The platform's modal dialog does the rest:
// focus moves in, the page behind is inert, Escape closes it and focus returns to the button.

export interface MenuIds {
  /** The menu button (components/SiteMenu.tsx). */
  button: string;
  /** The <dialog>. */
  dialog: string;
}

/**
 * Plain ES2017 in one statement, listening on the document (the body is not parsed yet when it runs). What it adds
 * to the platform's dialog: aria-expanded on the button; the close button; a click beside the drawer closes it;
 * Tab and Shift+Tab go round the dialog's controls (a modal dialog alone lets focus leave for the browser's own UI);
 * a link to a section of this page closes the menu, then scrolls there (smoothly unless reduced motion), puts the
 * hash in the history and moves focus to the section; focus goes back to the button when nothing else took it.
 */
export function menuScript({ button, dialog }: MenuIds): string {
  return [
    '(function(d){',
    `function g(i){return d.getElementById(i)}var B=${JSON.stringify(button)},M=${JSON.stringify(dialog)};`,
    'd.addEventListener("click",function(e){var b=g(B),m=g(M),t=e.target,a,s,h;if(!b||!m||!t.closest)return;',
    'if(b.contains(t)){m.open||(m.showModal(),b.setAttribute("aria-expanded","true"));return}',
    'if(!m.open||!m.contains(t))return;',
    'if(t==m||t.closest(".menu-close"))return m.close();',
    'a=t.closest("a");if(!a||e.defaultPrevented||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;',
    // Closed first, so the page scrolls again; a link to another page then goes there as usual.
    'm.close();h=a.hash;s=a.pathname==location.pathname&&h.length>1&&g(decodeURIComponent(h.slice(1)));if(!s)return;',
    'e.preventDefault();',
    's.scrollIntoView({behavior:matchMedia("(prefers-reduced-motion: reduce)").matches?"instant":"smooth"});',
    'location.hash!=h&&history.pushState(null,"",h);s.hasAttribute("tabindex")||s.setAttribute("tabindex","-1");',
    's.focus({preventScroll:true})});',
    'd.addEventListener("keydown",function(e){var m=g(M),c,f,l,a,w;if(e.key!="Tab"||!m||!m.open)return;',
    'c=m.querySelectorAll("a[href],button");f=c[0];l=c[c.length-1];a=d.activeElement;',
    'w=e.shiftKey?(a==f||a==m)&&l:a==l&&f;w&&(e.preventDefault(),w.focus())});',
    // close does not bubble: caught on its way down.
    'd.addEventListener("close",function(e){var b=g(B),m=g(M),a=d.activeElement;if(!b||e.target!=m)return;',
    'b.setAttribute("aria-expanded","false");(!a||a==d.body||m.contains(a))&&b.focus({preventScroll:true})},!0)',
    '})(document);',
  ].join('');
}
