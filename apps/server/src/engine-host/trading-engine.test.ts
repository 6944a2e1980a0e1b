import { testDatabases } from '@bourse/db';
import { btcUsdt } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../platform/clock.ts';
import { isStorable, TradingEngine } from './trading-engine.ts';

const SPEC = btcUsdt();
const dbs = await testDatabases();

describe('isStorable', () => {
  it('refuses a NUL or a lone surrogate in any top-level text, and takes everything else a database stores', () => {
    expect(isStorable({ id: 'c1', userId: 'u1', note: 'tab\tline\nemoji 😀 ç' })).toBe(true);
    expect(isStorable({ id: 'c\u00001' })).toBe(false);
    expect(isStorable({ id: 'c1', userId: 'u\0' })).toBe(false);
    expect(isStorable({ id: 'c1', link: 'half \ud83d' })).toBe(false);
    expect(isStorable({ id: 'c1', link: '\udc00 half' })).toBe(false);
    // Nested values reach the tables as JSON, which escapes both.
    expect(isStorable({ id: 'c1', trigger: { kind: 'stop\0' } })).toBe(true);
  });
});

describe.each(dbs)('the trading engine on $dialect', ({ open }) => {
  it('refuses a command whose text the database cannot store, journals nothing, and goes on trading', async () => {
    const db = await open();
    const engine = await TradingEngine.open(db, manualClock());
    try {
      expect((await engine.submit({ type: 'register_instrument', id: 'instrument', instrument: SPEC })).ok).toBe(true);
      const grant = {
        type: 'deposit',
        wallet: 'spot',
        asset: 'USDT',
        amount: '1000',
        from: 'faucet',
        cause: 'paper_grant',
      } as const;
      const before = engine.seq;
      for (const bad of [
        { ...grant, id: 'grant\u00001', userId: 'alice' },
        { ...grant, id: 'grant-2', userId: 'al\0ice' },
        { ...grant, id: 'grant-3', userId: 'alice', link: 'half \ud83d' },
      ] as const) {
        const applied = engine.apply(bad);
        expect(applied.result).toEqual({ ok: false, code: 'invalid_command' });
        expect(await applied.committed).toEqual({ ok: false, code: 'invalid_command' });
      }
      // Nothing reached the journal or the engine (on PostgreSQL a NUL in the batch failed the commit
      // and stopped the host: the next command was never answered).
      expect(engine.seq).toBe(before);
      expect(engine.state.balance('alice', 'spot', 'USDT').balance).toBe(0n);
      const good = await engine.submit({ ...grant, id: 'grant-4', userId: 'alice' });
      expect(good.ok).toBe(true);
      expect(engine.state.balance('alice', 'spot', 'USDT').balance).toBe(1_000_000_000n);
      const journal = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM engine_journal');
      expect(Number(journal[0]?.n)).toBe(2);
    } finally {
      await engine.close();
      await db.close();
    }
  });
});
