// A display heading from content: its lines joined by a space, one line optionally in the accent colour.
import { Fragment, type HTMLAttributes } from 'react';
import type { Title } from '../../../content/schema.ts';
import { cx } from '../lib/cx.ts';

export interface DisplayTitleProps extends Omit<HTMLAttributes<HTMLHeadingElement>, 'title'> {
  title: Title;
  as?: 'h1' | 'h2' | 'h3';
}

export function DisplayTitle({ title, as: Heading = 'h2', className, ...props }: DisplayTitleProps) {
  const { lines, accent } = title;
  return (
    <Heading className={cx('display', className)} {...props}>
      {lines.length === 1 && accent === undefined
        ? lines[0]
        : lines.map((line, index) => (
            <Fragment key={line}>
              {index > 0 && ' '}
              <span className={index === accent ? 'line accent' : 'line'}>{line}</span>
            </Fragment>
          ))}
    </Heading>
  );
}
