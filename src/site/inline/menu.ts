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
    '(function(){',
    'var d=document;',
    `function parts(){return{b:d.getElementById(${JSON.stringify(button)}),m:d.getElementById(${JSON.stringify(dialog)})}}`,
    'function section(a){var u=new URL(a.href,location.href),h=decodeURIComponent(u.hash.slice(1));',
    'return h&&u.origin===location.origin&&u.pathname===location.pathname&&u.search===location.search?d.getElementById(h):null}',
    'd.addEventListener("click",function(e){var p=parts(),t=e.target;if(!p.b||!p.m||!(t instanceof Element))return;',
    'if(p.b.contains(t)){if(!p.m.open){p.m.showModal();p.b.setAttribute("aria-expanded","true")}return}',
    'if(!p.m.open||!p.m.contains(t))return;',
    'if(t===p.m||t.closest(".menu-close")){p.m.close();return}',
    'var a=t.closest("a[href]");',
    'if(!a||e.defaultPrevented||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey||a.target&&a.target!=="_self")return;',
    'var s=section(a);p.m.close();if(!s)return;',
    'e.preventDefault();',
    's.scrollIntoView({behavior:matchMedia("(prefers-reduced-motion: reduce)").matches?"instant":"smooth",block:"start"});',
    'var h="#"+s.id;if(location.hash!==h)history.pushState(null,"",h);',
    'if(!s.hasAttribute("tabindex"))s.setAttribute("tabindex","-1");s.focus({preventScroll:true})});',
    'd.addEventListener("keydown",function(e){var p=parts();if(e.key!=="Tab"||!p.m||!p.m.open)return;',
    'var c=p.m.querySelectorAll("a[href],button:not([disabled])"),f=c[0],l=c[c.length-1],a=d.activeElement,',
    'w=e.shiftKey?(a===f||a===p.m?l:null):(a===l?f:null);if(w){e.preventDefault();w.focus()}});',
    // close does not bubble: caught on its way down.
    'd.addEventListener("close",function(e){var p=parts();if(!p.b||e.target!==p.m)return;',
    'p.b.setAttribute("aria-expanded","false");var a=d.activeElement;',
    'if(!a||a===d.body||p.m.contains(a))p.b.focus({preventScroll:true})},true);',
    '})();',
  ].join('');
}
