// The footer's copyright line: the build year in the HTML, the visitor's current year once hydrated.
import { useEffect, useState } from 'react';
import { island } from 'site-gen';
import { fill } from '../lib/text.ts';

export interface CopyrightYearProps {
  /** e.g. "© {year} {company}. All rights reserved." */
  template: string;
  company: string;
  buildYear: number;
}

function CopyrightYear({ template, company, buildYear }: CopyrightYearProps) {
  const [year, setYear] = useState(buildYear);
  // After hydration, so the first client render matches the server's HTML.
  useEffect(() => setYear(new Date().getFullYear()), []);
  return <p className="copyright">{fill(template, { year, company })}</p>;
}

// idle: a year that is stale only for a site not rebuilt since New Year can wait until the page is quiet.
export default island('copyright-year', CopyrightYear, { hydrate: 'idle' });
