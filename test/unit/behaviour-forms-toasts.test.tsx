// The toasts without a browser: region settings from the spec's constants, the store entries, stacking, loading on first need.
import { renderToString } from 'react-dom/server';
import { useToasterStore } from 'react-hot-toast/headless';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { placeToasts, Toaster } from '../../src/site/components/Toaster.tsx';
import { ToastContent } from '../../src/site/components/ToastContent.tsx';
import { ALERT_TOASTER, NOTIFICATIONS_TOASTER } from '../../src/site/constants.ts';
import { show, toasters } from '../../src/site/lib/toast-store.ts';
import { loadToasts, markRegionsMounted, notify, subscribeToToasts, toastsNeeded } from '../../src/site/lib/toasts.ts';
import { render, textOf } from '../helpers/dom.ts';

/** The toasts react-hot-toast holds for one region, read the way a component reads them. */
function stored(toasterId: string) {
  let toasts: ReturnType<typeof useToasterStore>['toasts'] = [];
  function Probe() {
    toasts = useToasterStore(undefined, toasterId).toasts;
    return null;
  }
  renderToString(<Probe />);
  return toasts;
}

const settings = suite('Region settings');

settings("the Notifications region takes the spec's defaults", () => {
  const n = toasters.notifications;
  assert.equal(
    [n.hotkey, n.position, n.visibleToasts, n.durationMs, n.stackGapPx, n.swipeThresholdPx, n.removeDelayMs],
    ['Alt+T', 'bottom-right', 3, 4000, 14, 20, 200],
  );
  assert.is(NOTIFICATIONS_TOASTER.label, 'Notifications');
});

settings('the alternate viewport: one toast at a time, 5000 ms, a 50 px swipe, F8; not stacked', () => {
  const a = toasters.alert;
  assert.equal(
    [a.hotkey, a.visibleToasts, a.durationMs, a.swipeThresholdPx, a.stackGapPx],
    [ALERT_TOASTER.hotkey, 1, 5000, 50, null],
  );
});

settings('the two regions keep their toasts apart (different toaster ids)', () => {
  assert.is.not(toasters.notifications.id, toasters.alert.id);
});

settings.run();

const store = suite('show()');

store("puts a toast into its own region with the region's duration and removal delay, announced politely", () => {
  const id = show('notifications', {
    title: 'Thank you for subscribing!',
    description: "You've been added to our newsletter.",
  });
  const toast = stored(toasters.notifications.id).find((t) => t.id === id);
  assert.ok(toast, 'the toast is in the Notifications store');
  assert.is(toast!.duration, 4000);
  assert.is(toast!.removeDelay, 200);
  assert.equal(toast!.ariaProps, { role: 'status', 'aria-live': 'polite' });
  assert.not.ok(
    stored(toasters.alert.id).some((t) => t.id === id),
    'not in the other region',
  );
  const r = render(toast!.message as React.ReactElement);
  assert.is(r.text('.toast-title'), 'Thank you for subscribing!');
  assert.is(r.text('.toast-description'), "You've been added to our newsletter.");
});

store(
  "a destructive toast is an error, announced at once (role alert, assertive), with the alternate viewport's 5000 ms",
  () => {
    const id = show(
      'alert',
      { title: 'Terms not accepted', description: 'Please accept the terms and conditions to proceed.' },
      'destructive',
    );
    const toast = stored(toasters.alert.id).find((t) => t.id === id)!;
    assert.is(toast.type, 'error');
    assert.equal(toast.ariaProps, { role: 'alert', 'aria-live': 'assertive' });
    assert.is(toast.duration, 5000);
  },
);

store.run();

const stack = suite('placeToasts');

stack('the front toast sits at the edge; each older one above the newer ones plus one gap each', () => {
  const placed = placeToasts(
    [
      { id: 'c', height: 80 },
      { id: 'b', height: 100 },
      { id: 'a', height: 60 },
    ],
    14,
  );
  assert.equal(Object.fromEntries(placed), {
    c: { index: 0, offsetPx: 0 },
    b: { index: 1, offsetPx: 94 },
    a: { index: 2, offsetPx: 208 },
  });
});

stack('a toast not measured yet counts as no height', () => {
  assert.equal(placeToasts([{ id: 'x' }, { id: 'y', height: 50 }], 14).get('y'), { index: 1, offsetPx: 14 });
});

stack.run();

const region = suite('Toaster markup');

region('a region named by its label, focusable by script only, with its hotkey declared', () => {
  const r = render(<Toaster name="alert" label="Alerts" dismissLabel="Dismiss notification" />);
  const section = r.$('section');
  assert.is(section.getAttribute('aria-label'), 'Alerts');
  assert.is(section.getAttribute('aria-keyshortcuts'), 'F8');
  assert.is(section.getAttribute('tabindex'), '-1');
  assert.ok(r.$('section > ol'), 'the toasts are a list');
});

region('ToastContent: the title, then the description', () => {
  const r = render(<ToastContent title="Message sent!" description="We'll get back to you as soon as possible." />);
  assert.equal(r.$$('p').map(textOf), ['Message sent!', "We'll get back to you as soon as possible."]);
});

region.run();

const loading = suite('Loading on first need');

loading('notify() asks for the regions, and adds the toast only once they are on the page', async () => {
  let told = 0;
  const unsubscribe = subscribeToToasts(() => told++);
  assert.not.ok(toastsNeeded(), 'nothing needed before a form asks');
  const pending = notify('notifications', { title: 'Thank you for subscribing!', description: 'Later.' });
  assert.ok(toastsNeeded());
  assert.is(told, 1, 'the toasts island is told once');
  await loadToasts();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.not.ok(
    stored(toasters.notifications.id).some(
      (t) =>
        t.message &&
        textOf(render(t.message as React.ReactElement).document.body) === 'Thank you for subscribing!Later.',
    ),
    'not shown before the regions mount',
  );
  markRegionsMounted();
  const id = await pending;
  assert.ok(
    stored(toasters.notifications.id).some((t) => t.id === id),
    'shown once they have',
  );
  assert.is(told, 1, 'asking again does not tell again');
  unsubscribe();
});

loading.run();
