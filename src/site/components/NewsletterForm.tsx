// 'Stay Connected': the newsletter form, one e-mail field.
import type { FormHTMLAttributes } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { Button } from './Button.tsx';

export interface NewsletterFormProps extends FormHTMLAttributes<HTMLFormElement> {
  copy: Copy['footer']['newsletter'];
  /** id of the heading that names the form. */
  labelledBy: string;
}

/** `method="dialog"` (outside a dialog): a submit before the script runs does nothing rather than put the address in a URL. */
export function NewsletterForm({ copy, labelledBy, ...props }: NewsletterFormProps) {
  return (
    <form className="newsletter" method="dialog" aria-labelledby={labelledBy} {...props}>
      <label className="sr-only" htmlFor="newsletter-email">
        {copy.label}
      </label>
      <input
        className="input"
        id="newsletter-email"
        type="email"
        name="email"
        required
        autoComplete="email"
        placeholder={copy.placeholder}
      />
      <Button type="submit">{copy.submit}</Button>
    </form>
  );
}
