// Logs the path a visitor asked for when the not-found page is shown, for whoever reads the browser console.
import { useEffect } from 'react';
import { island } from 'site-gen';

export interface NotFoundLoggerProps {
  /** e.g. "404 Error: User attempted to access non-existent route:" */
  message: string;
}

function NotFoundLogger({ message }: NotFoundLoggerProps) {
  useEffect(() => {
    console.error(message, window.location.pathname);
  }, [message]);
  return null;
}

// idle (after the load event): the log is for whoever reads the console, not for the visitor; it must not put React
// on the not-found page's critical path.
export default island('not-found-logger', NotFoundLogger, { hydrate: 'idle' });
