import { useDeferredValue, useEffect, useState, type RefObject } from 'react';
import type { DashboardPart } from './use-dashboard-data';

/** A part is drawn once it comes this close to the viewport (before it is scrolled into view). */
export const NEAR_VIEWPORT_PX = 200;
/** …or, far from it, this long after the screen opened, when the browser is next idle (so find-in-page and reading it all work). */
export const DRAW_LATER_MS = 5_000;

/** What a part not drawn yet shows: its loading skeleton (the same height, so nothing moves when it is drawn). */
const NOT_DRAWN: DashboardPart<never> = {
  data: undefined,
  loading: true,
  failed: false,
  unexpected: false,
  detail: null,
  retrying: false,
  retry: () => undefined,
  updatedAt: 0,
};

/**
 * A dashboard part below the first screen, drawn lazily (issue 24: Lighthouse mobile on
 * /dashboard/main, where each section's first render was a long task as its answer arrived).
 * Until `element` (the section's box) comes within NEAR_VIEWPORT_PX of the viewport, or until the
 * browser is idle DRAW_LATER_MS after the screen opened, the section shows its loading skeleton; from then on each new version
 * of the part is drawn in a background render (useDeferredValue) that React splits into short
 * slices, so an arriving answer no longer blocks the page for the whole section.
 *
 * Without IntersectionObserver (jsdom in the unit tests, very old browsers) the part is drawn at
 * once and directly, as before.
 */
export function useDrawnWhenNear<T>(element: RefObject<Element | null>, part: DashboardPart<T>): DashboardPart<T> {
  const lazy = typeof IntersectionObserver !== 'undefined';
  const [near, setNear] = useState(!lazy);
  useEffect(() => {
    const target = element.current;
    if (near || !target) return;
    const draw = () => setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && draw(), {
      rootMargin: `${NEAR_VIEWPORT_PX}px 0px`,
    });
    observer.observe(target);
    let idle: number | undefined;
    const later = window.setTimeout(() => {
      if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(draw, { timeout: DRAW_LATER_MS });
      else draw();
    }, DRAW_LATER_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(later);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [element, near]);
  const deferred = useDeferredValue<DashboardPart<T>>(lazy && near ? part : NOT_DRAWN, NOT_DRAWN);
  return lazy ? deferred : part;
}
