import type { HTMLAttributes, Ref } from 'react';
import { cx } from './cx';

type DivProps = HTMLAttributes<HTMLDivElement>;

export function Card({ className, ...rest }: DivProps) {
  return <div className={cx('card', className)} {...rest} />;
}

export function CardHeader({ className, ...rest }: DivProps) {
  return <div className={cx('card__header', className)} {...rest} />;
}

export interface CardTitleProps extends HTMLAttributes<HTMLHeadingElement> {
  /** Heading level; cards inside a page with an <h1> use h2 by default. */
  as?: 'h1' | 'h2' | 'h3' | 'h4';
  ref?: Ref<HTMLHeadingElement>;
}

export function CardTitle({ as: Tag = 'h2', className, ...rest }: CardTitleProps) {
  return <Tag className={cx('card__title', className)} {...rest} />;
}

export function CardDescription({ className, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cx('card__description', className)} {...rest} />;
}

export function CardContent({ className, ...rest }: DivProps) {
  return <div className={cx('card__content', className)} {...rest} />;
}

export function CardFooter({ className, ...rest }: DivProps) {
  return <div className={cx('card__footer', className)} {...rest} />;
}
