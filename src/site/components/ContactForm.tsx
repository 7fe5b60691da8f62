// The contact form: seven fields (names from the spec), browser-level validation, and the terms consent.
import * as sendIcon from 'lucide-react/icons/send';
import type { FormHTMLAttributes } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { Button } from './Button.tsx';
import { FormField } from './FormField.tsx';
import { lucideIcon } from './lucideIcon.ts';

const Send = lucideIcon(sendIcon);

export interface ContactFormProps extends FormHTMLAttributes<HTMLFormElement> {
  copy: Copy['contact'];
  /** While the (simulated) message is sending: the submit button shows a spinner and is disabled. */
  sending?: boolean;
}

/**
 * The terms checkbox is deliberately not `required`: the spec wants a toast ('Terms not accepted') rather than
 * the browser's own message, so the check happens on submit (src/site/islands/contact-form.tsx).
 * `method="dialog"` outside a dialog makes a submit before the script runs (or without JavaScript) do nothing,
 * where the default GET would put every field into a URL sent to the server: nothing may leave the browser.
 */
export function ContactForm({ copy, sending = false, ...props }: ContactFormProps) {
  const { fields } = copy;
  return (
    <form className="contact-form" id="contact-form" method="dialog" aria-label={copy.formLabel} {...props}>
      <div className="form-row">
        <FormField
          id="firstName"
          name="firstName"
          label={fields.firstName.label}
          placeholder={fields.firstName.placeholder}
          autoComplete="given-name"
          required
        />
        <FormField
          id="lastName"
          name="lastName"
          label={fields.lastName.label}
          placeholder={fields.lastName.placeholder}
          autoComplete="family-name"
          required
        />
      </div>
      <div className="form-row">
        <FormField
          id="email"
          name="email"
          type="email"
          label={fields.email.label}
          placeholder={fields.email.placeholder}
          autoComplete="email"
          required
        />
        <FormField
          id="phoneNumber"
          name="phoneNumber"
          type="tel"
          label={fields.phoneNumber.label}
          placeholder={fields.phoneNumber.placeholder}
          autoComplete="tel"
          required
        />
      </div>
      <FormField
        as="textarea"
        id="message"
        name="message"
        rows={4}
        label={fields.message.label}
        placeholder={fields.message.placeholder}
        required
      />
      <FormField
        id="fileUpload"
        name="fileUpload"
        type="file"
        label={fields.fileUpload.label}
        hint={fields.fileUpload.hint}
      />
      <div className="checkbox">
        <input id="termsAccepted" name="termsAccepted" type="checkbox" value="yes" />
        <label htmlFor="termsAccepted">{copy.terms}</label>
      </div>
      <Button type="submit" size="lg" className="form-submit" loading={sending}>
        {sending ? copy.sending : copy.submit}
        {!sending && <Send size={18} />}
      </Button>
    </form>
  );
}
