// A link that looks like a button: the site's calls to action.
import type { AnchorHTMLAttributes } from 'react';
import { cx } from '../lib/cx.ts';
import { buttonSizes, buttonVariants, type ButtonSize, type ButtonVariant } from './buttonStyles.ts';

export interface ButtonLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function ButtonLink({ variant = 'primary', size = 'md', className, children, ...props }: ButtonLinkProps) {
  return (
    <a className={cx('btn', buttonVariants[variant], buttonSizes[size], className)} {...props}>
      {children}
    </a>
  );
}
