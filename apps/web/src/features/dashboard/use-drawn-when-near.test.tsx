import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardPart } from './use-dashboard-data';
import { DRAW_LATER_MS, NEAR_VIEWPORT_PX, useDrawnWhenNear } from './use-drawn-when-near';

const PART: DashboardPart<string> = {
  data: 'the summary',
  loading: false,
  failed: false,
  unexpected: false,
  detail: null,
  retrying: false,
  retry: () => undefined,
  updatedAt: 1,
};

function Probe({ part }: { part: DashboardPart<string> }) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = useDrawnWhenNear(box, part);
  return <div ref={box}>{drawn.loading ? 'skeleton' : drawn.data}</div>;
}

/** An IntersectionObserver the test drives: `enter()` reports the observed element as near. */
function stubIntersectionObserver() {
  const observers: Array<{ callback: IntersectionObserverCallback; options?: IntersectionObserverInit; elements: Element[]; disconnected: boolean }> = [];
  class Stub {
    private readonly entry: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.entry = { callback, options, elements: [], disconnected: false };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.elements.push(element);
    }
    disconnect() {
      this.entry.disconnected = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', Stub);
  const live = () => observers.filter((observer) => !observer.disconnected);
  return {
    observers,
    enter: () =>
      live().forEach((observer) =>
        observer.callback(observer.elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry), observer as unknown as IntersectionObserver),
      ),
  };
}

/** requestIdleCallback the test fires by hand. */
function stubIdle() {
  const callbacks: Array<() => void> = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => callbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  return { fire: () => callbacks.splice(0).forEach((callback) => callback()) };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useDrawnWhenNear', () => {
  it('without IntersectionObserver (jsdom) draws the part at once', () => {
    expect(typeof IntersectionObserver).toBe('undefined');
    render(<Probe part={PART} />);
    expect(screen.getByText('the summary')).toBeInTheDocument();
  });

  it('shows the skeleton until the section comes near the viewport, then its data', async () => {
    const intersection = stubIntersectionObserver();
    stubIdle();
    render(<Probe part={PART} />);
    expect(screen.getByText('skeleton')).toBeInTheDocument();
    expect(intersection.observers[0]!.options?.rootMargin).toBe(`${NEAR_VIEWPORT_PX}px 0px`);
    expect(intersection.observers[0]!.elements).toHaveLength(1);
    act(() => intersection.enter());
    expect(await screen.findByText('the summary')).toBeInTheDocument();
    expect(intersection.observers[0]!.disconnected).toBe(true);
  });

  it('far from the viewport, draws the part when the browser is idle some seconds after the screen opened', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stubIntersectionObserver();
    const idle = stubIdle();
    render(<Probe part={PART} />);
    act(() => idle.fire());
    act(() => vi.advanceTimersByTime(DRAW_LATER_MS - 1));
    act(() => idle.fire());
    expect(screen.getByText('skeleton')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('skeleton')).toBeInTheDocument();
    act(() => idle.fire());
    vi.useRealTimers();
    expect(await screen.findByText('the summary')).toBeInTheDocument();
  });

  it('once drawn, follows the part as new answers arrive', async () => {
    const intersection = stubIntersectionObserver();
    stubIdle();
    const { rerender } = render(<Probe part={PART} />);
    act(() => intersection.enter());
    await screen.findByText('the summary');
    rerender(<Probe part={{ ...PART, data: 'a newer summary' }} />);
    expect(await screen.findByText('a newer summary')).toBeInTheDocument();
  });
});
