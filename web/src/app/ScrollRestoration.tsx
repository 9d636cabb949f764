/**
 * The scroll position on navigation, as react-router's data router keeps it: a new page starts at its hash's
 * element or at the top; back and forward (and a reload) return to where that history entry was left. The
 * positions live in sessionStorage under react-router's own key, so they survive a reload.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

const STORAGE_KEY = 'react-router-scroll-positions';

function readPositions(): Record<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return stored && typeof stored === 'object' ? (stored as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Record<string, number> | null>(null);
  const currentKey = useRef(location.key);
  const first = useRef(true);

  // The browser's own restoring would fight this one; it is given back when the page goes.
  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    positions.current ??= readPositions();
    // Kept as the reader scrolls, so the entry being left has its position when the next page draws.
    const onScroll = () => {
      (positions.current ??= {})[currentKey.current] = window.scrollY;
    };
    const onPageHide = () => {
      onScroll();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Without storage a reload starts at the top.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  useLayoutEffect(() => {
    currentKey.current = location.key;
    positions.current ??= readPositions();
    // A reload (the first render) and back or forward return to the entry's position; a new entry does not.
    const restore = first.current || navigationType === 'POP' ? positions.current[location.key] : undefined;
    first.current = false;
    if (typeof restore === 'number') {
      window.scrollTo(0, restore);
      return;
    }
    if (location.hash) {
      try {
        const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // Not a decodable element id: the page starts at the top.
      }
    }
    window.scrollTo(0, 0);
  }, [location, navigationType]);

  return null;
}
