// 'Stay Connected': the newsletter form, one e-mail field.
import type { FormEventHandler } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { Button } from './Button.tsx';

export interface NewsletterFormProps {
  copy: Copy['footer']['newsletter'];
  /** id of the heading that names the form. */
  labelledBy: string;
  onSubmit?: FormEventHandler<HTMLFormElement>;
}

export function NewsletterForm({ copy, labelledBy, onSubmit }: NewsletterFormProps) {
  return (
    <form className="newsletter" aria-labelledby={labelledBy} onSubmit={onSubmit}>
      <label className="sr-only" htmlFor="newsletter-email">
        {copy.label}
      </label>
      <input className="input" id="newsletter-email" type="email" name="email" required autoComplete="email" placeholder={copy.placeholder} />
      <Button type="submit">{copy.submit}</Button>
    </form>
  );
}
