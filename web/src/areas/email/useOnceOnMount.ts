import { useEffect, useRef } from 'react';

/**
 * Runs `work` once per page view. A token link is single-use: React's development double mount must not
 * spend it twice (the second call would report the link as used).
 */
export function useOnceOnMount(work: () => void): void {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    work();
  }, []); // once per mount, by design
}
