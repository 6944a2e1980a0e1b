// Keyboard access to the console's tables that scroll (WCAG 2.1.1; axe's scrollable-region-focusable).
// antd draws a wide table inside a scrolling box (.ant-table-content, or .ant-table-body with a fixed
// header) and offers no prop to make that box focusable, so the console marks every such box that
// overflows: a tab stop (arrow keys then scroll it) named for screen readers. A box that stops
// overflowing (a wider window, fewer columns) is unmarked again, so no table adds an idle tab stop.

/** antd's scrolling boxes around a table's rows. */
export const TABLE_SCROLLERS = '.ant-table-content, .ant-table-body';

const MARK = 'data-scroll-region';

/** What of an element marking reads and writes (an HTMLElement; a plain object in the unit test). */
export type ScrollBox = Pick<
  HTMLElement,
  'scrollWidth' | 'clientWidth' | 'scrollHeight' | 'clientHeight' | 'hasAttribute' | 'setAttribute' | 'removeAttribute'
>;

/** Makes `box` a named tab stop while its content overflows it; undoes only what it did otherwise. */
export function markScrollRegion(box: ScrollBox, label: string): void {
  const overflows = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
  if (overflows) {
    box.setAttribute(MARK, '');
    box.setAttribute('tabindex', '0');
    // A group, not a region: one landmark per table would crowd the landmark list.
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', label);
  } else if (box.hasAttribute(MARK)) {
    for (const name of [MARK, 'tabindex', 'role', 'aria-label']) box.removeAttribute(name);
  }
}

/**
 * Marks the table scrollers under `root` now and whenever its content changes or the window is
 * resized (once per frame). Returns the function that stops watching.
 */
export function watchScrollRegions(root: HTMLElement, label: string): () => void {
  let frame = 0;
  const scan = () => {
    frame = 0;
    for (const box of root.querySelectorAll<HTMLElement>(TABLE_SCROLLERS)) markScrollRegion(box, label);
  };
  const schedule = () => {
    if (frame === 0) frame = requestAnimationFrame(scan);
  };
  // Only added and removed nodes: the attributes set here do not wake the observer again.
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true });
  window.addEventListener('resize', schedule);
  schedule();
  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    cancelAnimationFrame(frame);
  };
}
