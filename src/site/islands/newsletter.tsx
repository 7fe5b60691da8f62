// 'Stay Connected', interactive: a valid address is "subscribed" (nothing is sent), thanked with a toast and cleared.
import type { FormEvent } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { island } from 'site-gen-ssg';
import { NewsletterForm } from '../components/NewsletterForm.tsx';
import { loadToasts, notify } from '../lib/toasts.ts';

export interface NewsletterProps {
  copy: Copy['footer']['newsletter'];
  /** id of the heading that names the form. */
  labelledBy: string;
}

function Newsletter({ copy, labelledBy }: NewsletterProps) {
  // The browser has checked the address (required, type email) before this runs.
  function subscribe(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    event.currentTarget.reset();
    void notify('notifications', copy.toast);
  }
  // Focus in the form makes a toast likely: its code loads then, not with the page.
  return <NewsletterForm copy={copy} labelledBy={labelledBy} onSubmit={subscribe} onFocus={() => void loadToasts()} />;
}

// visible: the form is in the footer, far below the first screen; its code loads as the footer nears the viewport.
export default island('newsletter', Newsletter, { hydrate: 'visible' });
