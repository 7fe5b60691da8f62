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

// load: the log belongs to the moment the page is shown.
export default island('not-found-logger', NotFoundLogger, { hydrate: 'load' });
