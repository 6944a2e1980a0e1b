// The last session's figures for markets closed at a simulator's start: on a Saturday, Friday's change and
// volume, closing at the start price; nothing for markets that are open; the same answer for the same inputs.
import { describe, expect, it } from 'vitest';
import { instrumentById } from './instrument.ts';
import { lastSessionIfClosed, lastSessionQuotes } from './last-session.ts';
import { modelParamsOf } from './model.ts';
import { createSimulator } from './simulator.ts';

const SATURDAY = Date.UTC(2026, 0, 10, 12, 0);
const MONDAY_NSE_OPEN = Date.UTC(2026, 0, 5, 4, 0);

describe('last session figures', () => {
  it("gives a closed market Friday's session, closing at the start price, with a change and volume", () => {
    expect(lastSessionIfClosed('NSE', SATURDAY)?.tradingDay).toBe('2026-01-09');
    const quotes = lastSessionQuotes({ seed: 'demo', atMs: SATURDAY });
    const reliance = quotes.get('NSE:RELIANCE');
    const start = modelParamsOf(instrumentById('NSE:RELIANCE')).startTicks;
    expect(reliance).toMatchObject({ tradingDay: '2026-01-09', lastTicks: start });
    expect(reliance?.prevCloseTicks).not.toBe(start);
    expect(reliance?.volumeLots).toBeGreaterThan(0);
    expect(reliance?.highTicks).toBeGreaterThanOrEqual(start);
    expect(reliance?.lowTicks).toBeLessThanOrEqual(start);
    // Every closed stock market is covered: India, the US and Brazil.
    const days = new Set([...quotes.values()].map((q) => q.tradingDay));
    expect(days).toEqual(new Set(['2026-01-09']));
    expect([...quotes.keys()].some((id) => id.startsWith('B3:'))).toBe(true);
    expect([...quotes.keys()].some((id) => id.startsWith('CRYPTO:'))).toBe(false);
    expect(lastSessionQuotes({ seed: 'demo', atMs: SATURDAY })).toEqual(quotes);
  });

  it('leaves out markets that are open at the start', () => {
    const quotes = lastSessionQuotes({ seed: 'demo', atMs: MONDAY_NSE_OPEN });
    expect(quotes.has('NSE:RELIANCE')).toBe(false);
    expect(lastSessionIfClosed('NSE', MONDAY_NSE_OPEN)).toBeNull();
    expect([...quotes.keys()].some((id) => id.startsWith('B3:'))).toBe(true);
  });

  it('seeds a simulator, whose next session starts from the carried close', () => {
    const ids = ['NSE:RELIANCE'];
    const initialQuotes = lastSessionQuotes({ seed: 's', atMs: SATURDAY, instrumentIds: ids });
    const sim = createSimulator({ seed: 's', startMs: SATURDAY, instrumentIds: ids, initialQuotes });
    const carried = sim.quote('NSE:RELIANCE');
    expect(carried?.tradingDay).toBe('2026-01-09');
    expect(carried?.volumeLots).toBeGreaterThan(0);
    // Monday 04:00 UTC: NSE has been open 15 minutes; the day is new and its previous close is Friday's.
    sim.skipTo(MONDAY_NSE_OPEN + 7 * 86_400_000 - 60_000);
    const monday = sim.quote('NSE:RELIANCE');
    expect(monday?.tradingDay).toBe('2026-01-12');
    expect(monday?.prevCloseTicks).toBe(carried?.lastTicks);
  });
});
