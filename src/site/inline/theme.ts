// The theme, inline in every page's <head>: applied before first paint, switched by the header's <select> and, on
// "system", following the operating system live. Inline because each of these must work before any script has
// downloaded and without a tap (issue 23): a listener in an island would wait for the island.
import type { Theme } from '../../../content/schema.ts';

/**
 * Plain ES2017 in one statement, with no free names but the page's globals; the stored choice lives in the closure,
 * so "system" keeps following the OS where storage is disabled (the choice then lasts for the page only).
 * The switch (components/ThemeSwitch.tsx) is server markup: this script gives it its value and icon at
 * DOMContentLoaded and handles its change events on the document. The icon of a light or dark choice follows the
 * class on <html> (styles/header.css), a rule the page's inline critical CSS has; only "system" is marked on the
 * icon (data-choice), as the first paint's own CSS cannot know it.
 */
export function themeScript(theme: Theme): string {
  const key = JSON.stringify(theme.storageKey);
  return [
    '(function(){',
    `var d=document,r=d.documentElement,k=${key},f=${JSON.stringify(theme.default)},c=${JSON.stringify(theme.colors)},`,
    'q=matchMedia("(prefers-color-scheme: dark)"),t=f;',
    'function parse(v){return v==="light"||v==="dark"||v==="system"?v:f}',
    'try{t=parse(localStorage.getItem(k))}catch(e){}',
    'function apply(){var s=t==="system"?(q.matches?"dark":"light"):t;r.classList.remove("light","dark");r.classList.add(s);',
    `var m=d.querySelector('meta[name="theme-color"]');if(m)m.content=c[s]}`,
    'function show(){d.querySelectorAll(".theme-select").forEach(function(s){s.value=t});',
    'd.querySelectorAll(".theme-icons").forEach(function(i){if(t==="system")i.setAttribute("data-choice",t);else i.removeAttribute("data-choice")})}',
    'apply();',
    'q.addEventListener("change",function(){if(t==="system")apply()});',
    'd.addEventListener("change",function(e){var s=e.target;if(!s.classList||!s.classList.contains("theme-select"))return;',
    't=parse(s.value);try{localStorage.setItem(k,t)}catch(x){}apply();show()});',
    'if(d.readyState==="loading")d.addEventListener("DOMContentLoaded",show);else show();',
    '})();',
  ].join('');
}
