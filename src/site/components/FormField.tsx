// A labelled form control: input or textarea, with an optional hint tied to it by aria-describedby.
import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { cx } from '../lib/cx.ts';

interface Common {
  id: string;
  label: string;
  hint?: string;
  className?: string;
}

export type FormFieldProps =
  | (Common & { as?: 'input' } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>)
  | (Common & { as: 'textarea' } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>);

export function FormField(props: FormFieldProps) {
  const { id, label, hint, className } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  let control;
  if (props.as === 'textarea') {
    const { as: _as, id: _id, label: _label, hint: _hint, className: _class, ...rest } = props;
    control = <textarea className="input" id={id} aria-describedby={hintId} {...rest} />;
  } else {
    const { as: _as, id: _id, label: _label, hint: _hint, className: _class, ...rest } = props;
    control = (
      <input
        className={cx('input', rest.type === 'file' && 'input-file')}
        id={id}
        aria-describedby={hintId}
        {...rest}
      />
    );
  }
  return (
    <div className={cx('field', className)}>
      <label htmlFor={id}>{label}</label>
      {control}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
