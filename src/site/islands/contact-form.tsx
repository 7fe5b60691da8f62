// The contact form, interactive: terms checked, a simulated send with a spinner, then a toast and every field reset.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { island } from 'site-gen-ssg';
import { ContactForm } from '../components/ContactForm.tsx';
import { SIMULATED_SEND_DELAY_MS } from '../constants.ts';
import { loadToasts, notify } from '../lib/toasts.ts';

export interface ContactFormIslandProps {
  copy: Copy['contact'];
}

function ContactFormIsland({ copy }: ContactFormIslandProps) {
  const [sending, setSending] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const refocus = useRef<HTMLElement | null>(null);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // The disabled button drops the focus it had while sending: once it is enabled again, give it back.
  useEffect(() => {
    if (sending || !refocus.current) return;
    if (document.activeElement === document.body) refocus.current.focus();
    refocus.current = null;
  }, [sending]);

  // The browser has checked the required fields and the e-mail format before this runs.
  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    const terms = form.elements.namedItem('termsAccepted') as HTMLInputElement;
    if (!terms.checked) {
      void notify('alert', copy.toasts.termsMissing, 'destructive');
      terms.focus();
      return;
    }
    const submit = form.querySelector<HTMLElement>('[type="submit"]');
    if (submit && document.activeElement === submit) refocus.current = submit;
    setSending(true);
    // Nothing is sent anywhere: the site has no server. The delay stands in for one.
    timer.current = window.setTimeout(() => {
      form.reset();
      setSending(false);
      void notify('alert', copy.toasts.sent);
    }, SIMULATED_SEND_DELAY_MS);
  }
  // Focus in the form makes a toast likely: its code loads then, not with the page.
  return <ContactForm copy={copy} sending={sending} onSubmit={send} onFocus={() => void loadToasts()} />;
}

// interaction: the form needs its code only once the visitor reaches it (pointer, focus, touch), which starts it at
// once; a click, typing or a submit made before it is live is replayed then (src/runtime). No React before that.
export default island('contact-form', ContactFormIsland, { hydrate: 'interaction' });
