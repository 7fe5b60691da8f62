// The fallback screen for an uncaught rendering error: heading, the error's message and its stack.
import * as triangleExclamationPointIcon from 'lucide-react/icons/triangle-exclamation-point';
import type { ErrorScreenProps } from 'site-gen-ssg';
import errors from '../../../content/errors.ts';
import { cx } from '../lib/cx.ts';
import { lucideIcon } from './lucideIcon.ts';

const TriangleAlert = lucideIcon(triangleExclamationPointIcon);

// Its texts come straight from content/errors.ts, not props: site-gen renders it (through src/site/error.tsx) with the
// error alone, in the browser, where the validated content is not at hand. That file holds plain strings only.
export function ErrorScreen({ error, inline = false }: ErrorScreenProps) {
  const Heading = inline ? 'h2' : 'h1';
  const Root = inline ? 'div' : 'main';
  return (
    <Root className={cx('error-screen', inline && 'is-inline')} role={inline ? 'alert' : undefined}>
      <div className="error-card">
        <TriangleAlert className="error-icon" size={28} />
        <Heading className="error-title">{errors.title}</Heading>
        <p className="error-text">{errors.text}</p>
        <p className="error-message">
          <code>{error.message || error.name}</code>
        </p>
        {error.stack && (
          <>
            <p className="error-stack-label">{errors.stack}</p>
            <pre className="error-stack" tabIndex={0}>
              {error.stack}
            </pre>
          </>
        )}
      </div>
    </Root>
  );
}
