// A button that counts its clicks: rendered on the server, made interactive in the browser once the page is idle.
import { useState } from 'react';
import { island } from 'site-gen-ssg';

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <p>
      <button type="button" onClick={() => setCount(count + 1)}>
        {label}
      </button>{' '}
      <output aria-live="polite">{count}</output>
    </p>
  );
}

export default island('counter', Counter, { hydrate: 'idle' });
