// Dev only, in the browser: follows `site-gen watch`'s events, reloading the page or swapping its stylesheet in place.
// Loaded as an external module script, so the pages' Content-Security-Policy holds in dev too.

interface BuildMessage {
  build: string;
  href?: string;
  pages?: string[];
}

const root = document.documentElement;
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
/** The build this page shows: set by the server in the page, then by each event the page follows or may ignore. */
let build = meta('site-gen-build');
/** The output file this page is (contact/index.html, 404.html); none on the error page. */
const page = meta('site-gen-page');
/** A stylesheet still loading: a newer swap replaces it, so an older sheet never lands after a newer one. */
let loading: HTMLLinkElement | undefined;

function read(event: Event): BuildMessage {
  return JSON.parse((event as MessageEvent<string>).data) as BuildMessage;
}

/**
 * Puts the new full stylesheet where the old one is and removes the old one once the new one has loaded, so the page
 * never shows unstyled. The inline critical CSS goes too: it holds the old rules, and the full sheet has them all.
 */
function swapStylesheet(href: string): void {
  const current = document.getElementById('site-css');
  loading?.remove();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  loading = link;
  link.addEventListener('load', () => {
    if (loading !== link) return;
    loading = undefined;
    current?.remove();
    for (const style of document.head.querySelectorAll('style')) style.remove();
    link.id = 'site-css';
  });
  link.addEventListener('error', () => location.reload());
  if (current) current.after(link);
  else document.head.append(link);
}

function listen(): void {
  const events = new EventSource('/__site-gen/events');
  events.addEventListener('hello', (event) => {
    const message = read(event);
    // The page is older than the server's build (a rebuild ended while it loaded, or the server restarted): catch up.
    if (build !== undefined && message.build !== build) return location.reload();
    build = message.build;
    root.dataset.siteGenReload = 'connected';
  });
  events.addEventListener('reload', (event) => {
    const message = read(event);
    build = message.build;
    // Only some pages changed, and not this one: it is as current as the new build.
    if (message.pages && page !== undefined && !message.pages.includes(page)) return;
    location.reload();
  });
  events.addEventListener('css', (event) => {
    const message = read(event);
    build = message.build;
    if (message.href) swapStylesheet(message.href);
  });
  // EventSource reconnects by itself; the hello on reconnection tells whether anything was missed.
  events.addEventListener('error', () => {
    root.dataset.siteGenReload = 'disconnected';
  });
}

// Connect once the page has loaded: the stream holds one of the browser's six connections to the server for good,
// and the page's own images and scripts load faster with all six. A rebuild meanwhile is caught by the hello.
if (document.readyState === 'complete') listen();
else window.addEventListener('load', listen, { once: true });
