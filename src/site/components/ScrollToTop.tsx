// The round button at the bottom left that goes back to the top of the page.
import * as arrowUpIcon from 'lucide-react/icons/arrow-up';
import { lucideIcon } from './lucideIcon.ts';

const ArrowUp = lucideIcon(arrowUpIcon);

/**
 * A link to "#", which HTML defines as the top of the document: it works without JavaScript, and where the browser
 * supports scroll-driven animations it appears only past 400 px with CSS alone (styles/layout.css). Server markup;
 * lib/scroll-to-top.ts adds the rest.
 */
export function ScrollToTop({ label }: { label: string }) {
  return (
    <a className="to-top" href="#" aria-label={label}>
      <ArrowUp size={20} />
    </a>
  );
}
