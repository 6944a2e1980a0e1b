import { describe, expect, it } from 'vitest';
import { manualClock } from '../../platform/clock.ts';
import { WeightLimits } from './weight-limits.ts';

describe('request weight per minute', () => {
  it('lets a caller spend up to the limit in a clock minute, then says how long to wait', () => {
    const clock = manualClock(Date.UTC(2026, 0, 5, 4, 0, 15));
    const limits = new WeightLimits(50, clock);
    expect(limits.spend('key:1', 20)).toEqual({ ok: true, used: 20 });
    expect(limits.spend('key:1', 30)).toEqual({ ok: true, used: 50 });
    expect(limits.spend('key:1', 1)).toEqual({ ok: false, used: 51, retryAfterSec: 45 });
    // Callers apart.
    expect(limits.spend('key:2', 50)).toEqual({ ok: true, used: 50 });
    clock.advance(44_500);
    expect(limits.spend('key:1', 1)).toMatchObject({ ok: false, retryAfterSec: 1 });
    // The next minute starts afresh.
    clock.advance(500);
    expect(limits.spend('key:1', 1)).toEqual({ ok: true, used: 1 });
  });
});
