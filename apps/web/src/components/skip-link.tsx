import type { MouseEvent } from 'react';

/** The id of each page's main landmark, where the skip link leads. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * 'Skip to content' (WCAG 2.4.1): the first tab stop of every page, hidden until focused; it moves
 * the focus to the main landmark (which takes focus with tabIndex -1), past the header and menu.
 */
export function SkipLink() {
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  }
  return (
    <a className="sb-skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      Skip to content
    </a>
  );
}
