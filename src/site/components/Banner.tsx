// The full-width accent band that leads into the call to action ('READY TO GET STARTED').
import type { Copy } from '../../../content/schema.ts';
import { DisplayTitle } from './DisplayTitle.tsx';

export function Banner({ copy }: { copy: Copy['banner'] }) {
  return (
    <section className="banner" aria-labelledby="banner-title">
      <div className="container">
        <DisplayTitle id="banner-title" className="banner-title" title={copy.title} />
      </div>
    </section>
  );
}
