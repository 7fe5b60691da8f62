// Logs the path a visitor asked for when the not-found page is shown, for whoever reads the browser console.
import { behaviour } from 'site-gen-ssg';

export interface NotFoundLoggerProps {
  /** e.g. "404 Error: User attempted to access non-existent route:" */
  message: string;
}

// idle (after the load event): the log is for whoever reads the console, not for the visitor; it must not put any
// script on the not-found page's critical path, and needs no React at all.
export default behaviour<NotFoundLoggerProps>('not-found-logger', { hydrate: 'idle' }, (_element, { message }) => {
  console.error(message, window.location.pathname);
});
