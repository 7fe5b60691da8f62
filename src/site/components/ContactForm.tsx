// The contact form: seven fields (names from the spec), browser-level validation, and the terms consent.
import { Send } from 'lucide-react';
import type { FormEventHandler } from 'react';
import type { Copy } from '../../../content/schema.ts';
import { Button } from './Button.tsx';
import { FormField } from './FormField.tsx';

export interface ContactFormProps {
  copy: Copy['contact'];
  /** While the (simulated) message is sending: the submit button shows a spinner and is disabled. */
  sending?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
}

/**
 * The terms checkbox is deliberately not `required`: the spec wants a toast ('Terms not accepted') rather than
 * the browser's own message, so the check happens on submit (next issue).
 */
export function ContactForm({ copy, sending = false, onSubmit }: ContactFormProps) {
  const { fields } = copy;
  return (
    <form className="contact-form" id="contact-form" aria-label={copy.formLabel} onSubmit={onSubmit}>
      <div className="form-row">
        <FormField id="firstName" name="firstName" label={fields.firstName.label} placeholder={fields.firstName.placeholder} autoComplete="given-name" required />
        <FormField id="lastName" name="lastName" label={fields.lastName.label} placeholder={fields.lastName.placeholder} autoComplete="family-name" required />
      </div>
      <div className="form-row">
        <FormField id="email" name="email" type="email" label={fields.email.label} placeholder={fields.email.placeholder} autoComplete="email" required />
        <FormField id="phoneNumber" name="phoneNumber" type="tel" label={fields.phoneNumber.label} placeholder={fields.phoneNumber.placeholder} autoComplete="tel" required />
      </div>
      <FormField as="textarea" id="message" name="message" rows={4} label={fields.message.label} placeholder={fields.message.placeholder} required />
      <FormField id="fileUpload" name="fileUpload" type="file" label={fields.fileUpload.label} hint={fields.fileUpload.hint} />
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
