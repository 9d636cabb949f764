/**
 * A section that fades in the first time it scrolls into view. On a page that began prerendered, without
 * IntersectionObserver, or when the visitor prefers reduced motion, it is simply there (the CSS also drops the transition then).
 */
import { useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { rendersAsPrerendered } from '../../lib/prerendered';
import { cx } from '../../ui/cx';
import { prefersReducedMotion } from './motion';

export function Reveal({ className, children, ...rest }: HTMLAttributes<HTMLElement>) {
  const ref = useRef<HTMLElement>(null);
  // Prerendered HTML shows every section (it must read without a script), and the page keeps them as they are.
  const [shown, setShown] = useState(
    () => rendersAsPrerendered() || typeof IntersectionObserver === 'undefined' || prefersReducedMotion(),
  );

  useEffect(() => {
    const element = ref.current;
    if (shown || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setShown(true);
          observer.disconnect();
        }
      },
      { rootMargin: '0px 0px -10% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);

  return (
    <section ref={ref} className={cx('reveal', shown && 'reveal--shown', className)} {...rest}>
      {children}
    </section>
  );
}
