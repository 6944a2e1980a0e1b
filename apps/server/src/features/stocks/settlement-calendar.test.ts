import { describe, expect, it } from 'vitest';
import { settledCutoffMs, unlockAtMs } from './settlement-calendar.ts';

const IST = (iso: string) => Date.parse(`${iso}+05:30`);
const BRT = (iso: string) => Date.parse(`${iso}-03:00`);

describe('settlement calendar', () => {
  it('unlocks NSE shares bought on a Friday at the start of Monday (T+1), and settles them then', () => {
    const friday = IST('2026-01-09T11:00:00');
    expect(unlockAtMs('NSE', friday)).toBe(IST('2026-01-12T00:00:00'));
    // Saturday and Sunday: Friday's trades are still unsettled; Thursday's have settled.
    expect(settledCutoffMs('NSE', IST('2026-01-10T12:00:00'))).toBe(IST('2026-01-09T00:00:00'));
    expect(settledCutoffMs('NSE', IST('2026-01-12T00:00:01'))).toBe(IST('2026-01-10T00:00:00'));
  });

  it('skips an exchange holiday (Republic Day, Monday 26 January 2026)', () => {
    const friday = IST('2026-01-23T10:00:00');
    expect(unlockAtMs('NSE', friday)).toBe(IST('2026-01-27T00:00:00'));
    expect(settledCutoffMs('NSE', IST('2026-01-26T15:00:00'))).toBeLessThanOrEqual(friday);
  });

  it('gives B3 two trading days (D+2)', () => {
    const monday = BRT('2026-03-02T11:00:00');
    expect(unlockAtMs('B3', monday)).toBe(BRT('2026-03-04T00:00:00'));
    expect(settledCutoffMs('B3', BRT('2026-03-03T12:00:00'))).toBeLessThanOrEqual(monday);
    expect(settledCutoffMs('B3', BRT('2026-03-04T00:00:00'))).toBeGreaterThan(monday);
  });
});
