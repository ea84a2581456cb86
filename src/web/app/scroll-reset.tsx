import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Every change of page starts at the top (a link to a section of the same page keeps the
 * browser's own jump to that section). Focus moves to the main landmark so screen readers
 * announce the new page.
 */
export function ScrollReset() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);

  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
    document.getElementById('main-content')?.focus({ preventScroll: true });
    // Only a new page resets the scroll; the hash is read but does not trigger it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);

  return null;
}
