// The footer's copyright line: the build year in the HTML (its markup, on the page), the visitor's current year once
// this has run.
import { behaviour } from 'site-gen-ssg';
import { fill } from '../lib/text.ts';

export interface CopyrightYearProps {
  /** e.g. "© {year} {company}. All rights reserved." */
  template: string;
  company: string;
}

// idle: a year that is stale only for a site not rebuilt since New Year can wait until the page is quiet.
export default behaviour<CopyrightYearProps>(
  'copyright-year',
  { hydrate: 'idle' },
  (element, { template, company }) => {
    const line = element.querySelector('.copyright');
    const text = fill(template, { year: new Date().getFullYear(), company });
    // Written only when the year has turned: an unchanged line is not laid out again.
    if (line && line.textContent !== text) line.textContent = text;
  },
);
