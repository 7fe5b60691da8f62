// A real <button>; `loading` disables it and shows a spinner (the contact form while it sends).
import type { ButtonHTMLAttributes } from 'react';
import { cx } from '../lib/cx.ts';
import { buttonSizes, buttonVariants, type ButtonSize, type ButtonVariant } from './buttonStyles.ts';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  type = 'button',
  disabled,
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cx('btn', buttonVariants[variant], buttonSizes[size], className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
