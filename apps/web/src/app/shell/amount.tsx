// Shows one amount on one line, always: a number never wraps inside itself ("₹10,00,000.\n00"). When the
// full figure is wider than its box, the font steps down a little, then the abbreviated figure (₹10L) is
// shown, with the full one kept as the tooltip and for screen readers. Must not: change the figures.
import { useLayoutEffect, useRef, useState } from 'react';

/** Font sizes tried, as shares of the styled size, before abbreviating. */
const SCALES = [1, 0.92, 0.84];

export function Amount({ full, compact, className = '' }: { full: string; compact?: string; className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [compactFor, setCompactFor] = useState<string | null>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  const canCompact = compact !== undefined && compact !== full;
  // Abbreviated only for the figure that did not fit: a new figure (or a wider box) gets a new try.
  const isCompact = canCompact && compactFor === full;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.fontSize = '';
    const base = Number.parseFloat(getComputedStyle(el).fontSize);
    for (const scale of SCALES) {
      el.style.fontSize = scale === 1 ? '' : `${(base * scale).toFixed(2)}px`;
      if (el.scrollWidth <= el.clientWidth) return;
    }
    if (canCompact && !isCompact) {
      el.style.fontSize = '';
      setCompactFor(full);
    }
  }, [full, canCompact, isCompact, boxWidth]);

  useLayoutEffect(() => {
    const box = ref.current?.parentElement;
    if (!box || typeof ResizeObserver === 'undefined') return;
    let last = Math.round(box.getBoundingClientRect().width);
    const observer = new ResizeObserver(() => {
      const width = Math.round(box.getBoundingClientRect().width);
      if (width === last) return;
      last = width;
      setCompactFor(null);
      setBoxWidth(width);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  return (
    <span ref={ref} className={`amount tabular ${className}`.trim()} title={isCompact ? full : undefined}>
      {isCompact ? (
        <>
          <span aria-hidden="true">{compact}</span>
          <span className="visually-hidden">{full}</span>
        </>
      ) : (
        full
      )}
    </span>
  );
}
