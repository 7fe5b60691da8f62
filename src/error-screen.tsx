// What site-gen shows for an error when the site supplies no screen of its own (src/site/error.tsx): neutral, unstyled text.
import { createElement, type ComponentType } from 'react';

export interface ErrorScreenProps {
  error: Error;
  /** Shown in place of one island (a heading of level 2, role="alert") rather than as the whole page (level 1, in <main>). */
  inline?: boolean;
}

/** A site's error screen: the default export of src/site/error.tsx. */
export type ErrorScreenComponent = ComponentType<ErrorScreenProps>;

export function DefaultErrorScreen({ error, inline = false }: ErrorScreenProps) {
  return createElement(
    inline ? 'div' : 'main',
    { className: 'site-gen-error', role: inline ? 'alert' : undefined },
    createElement(inline ? 'h2' : 'h1', null, inline ? 'This part of the page could not be shown' : 'Error'),
    createElement('p', null, createElement('code', null, error.message || error.name)),
    error.stack ? createElement('pre', { tabIndex: 0 }, error.stack) : null,
  );
}
