import { describe, expect, it } from 'vitest';
import { markScrollRegion, type ScrollBox } from './scroll-regions.ts';

/** A box of the given sizes whose attributes are a map (what markScrollRegion touches of an element). */
function box(size: { scrollWidth: number; clientWidth: number; scrollHeight?: number; clientHeight?: number }) {
  const attributes = new Map<string, string>();
  const element: ScrollBox & { clientWidth: number; attributes: Map<string, string> } = {
    scrollHeight: 100,
    clientHeight: 100,
    ...size,
    attributes,
    hasAttribute: (name) => attributes.has(name),
    setAttribute: (name, value) => void attributes.set(name, value),
    removeAttribute: (name) => void attributes.delete(name),
  };
  return element;
}

describe('markScrollRegion', () => {
  it('makes a table box that scrolls sideways a named tab stop', () => {
    const wide = box({ scrollWidth: 1400, clientWidth: 900 });
    markScrollRegion(wide, 'Table (scrolls)');
    expect(Object.fromEntries(wide.attributes)).toEqual({
      'data-scroll-region': '',
      tabindex: '0',
      role: 'group',
      'aria-label': 'Table (scrolls)',
    });
  });

  it('marks a box that scrolls down as well', () => {
    const tall = box({ scrollWidth: 900, clientWidth: 900, scrollHeight: 2000, clientHeight: 400 });
    markScrollRegion(tall, 'Table');
    expect(tall.attributes.get('tabindex')).toBe('0');
  });

  it('leaves a box that fits alone, and unmarks one that no longer overflows', () => {
    const fits = box({ scrollWidth: 900, clientWidth: 900 });
    markScrollRegion(fits, 'Table');
    expect(fits.attributes.size).toBe(0);

    const resized = box({ scrollWidth: 1400, clientWidth: 900 });
    markScrollRegion(resized, 'Table');
    resized.clientWidth = 1400;
    markScrollRegion(resized, 'Table');
    expect(resized.attributes.size).toBe(0);
  });

  it('does not strip attributes it did not set', () => {
    const own = box({ scrollWidth: 900, clientWidth: 900 });
    own.attributes.set('tabindex', '-1');
    markScrollRegion(own, 'Table');
    expect(own.attributes.get('tabindex')).toBe('-1');
  });
});
