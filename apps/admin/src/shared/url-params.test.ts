import { describe, expect, it } from 'vitest';
import { positiveInt, withParams } from './url-params.ts';

describe('URL page state', () => {
  it('accepts only whole numbers from 1, capped', () => {
    expect(positiveInt('3', 1, 100)).toBe(3);
    expect(positiveInt('500', 20, 100)).toBe(100);
    for (const bad of [null, '', '0', '-2', '1.5', 'x']) expect(positiveInt(bad, 20, 100)).toBe(20);
  });

  it('sets and removes parameters without touching the others', () => {
    const next = withParams(new URLSearchParams('page=3&action=user.status'), { page: '', staffId: 7 });
    expect(next.toString()).toBe('action=user.status&staffId=7');
  });
});
