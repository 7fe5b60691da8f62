// The small accent label above a section heading ('Our Network', 'Take Action').
import type { HTMLAttributes } from 'react';
import { cx } from '../lib/cx.ts';

export function Badge({ className, children, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return (
    <p className={cx('badge', className)} {...props}>
      {children}
    </p>
  );
}
