// The stock sentiment vote through the HTTP API on both databases: a customer votes bullish, sees the
// tally and their vote; a second vote the same trading day is refused in both languages (nothing
// changed); the next trading day takes a new vote, and the recent days keep yesterday's; a weekend
// vote counts for Monday. Unknown stock → not found; not signed in → -1000. Staff set the vote page's
// address (audited, with a reason), for all stocks and for one; /index/vote/info answers the stock's
// own address first, framable only for an allow-listed host; the CSP frames those hosts only.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
const DAY = 86_400_000;
// The test clock starts Monday 5 January 2026, 09:30 in India (NSE's calendar decides the day).

async function staffToken(t: T) {
  const answer = await t.call('POST', '/admin/auth/login', {
    json: {
      username: DEMO_STAFF.username,
      password: DEMO_STAFF.password,
      totpCode: totpNow(DEMO_STAFF.totpSecret, t.clock.now()),
    },
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer.body.data.token as string;
}

describe.each(dbs)('sentiment vote on $dialect', ({ open }) => {
  it('takes one vote per customer, stock and trading day, and tallies today and recent days', async () => {
    const db = await open();
    const t = await testApp(db, { voteFrameHosts: ['evoting.example.com'] });
    try {
      const asha = (await t.register('9800000101')).body.data.token as string;
      const ravi = (await t.register('9800000102')).body.data.token as string;

      const before = (await t.call('GET', '/stock/index/vote?symbol=TCS', { token: asha })).body.data;
      expect(before).toMatchObject({ symbol: 'NSE:TCS', day: '2026-01-05', mine: null });
      expect(before.today).toEqual({ day: '2026-01-05', bullish: 0, bearish: 0 });
      expect(before.recent.map((r: { day: string }) => r.day)).toEqual([
        '2026-01-05',
        '2026-01-02',
        '2026-01-01',
        '2025-12-31',
        '2025-12-30',
      ]);

      const voted = await t.call('POST', '/stock/index/vote', {
        token: asha,
        body: { symbol: 'NSE:TCS', side: 'bullish' },
      });
      expect(voted.body.code, JSON.stringify(voted.body)).toBe(0);
      expect(voted.body.data).toMatchObject({ mine: 'bullish', today: { bullish: 1, bearish: 0 } });
      await t.call('POST', '/stock/index/vote', { token: ravi, json: { symbol: 'TCS', side: 'bearish' } });

      // A second vote the same day, either side, is refused in both languages, and nothing changes.
      for (const [lang, msg] of [
        ['en-US', 'You have already voted on this stock today; you can vote again on the next trading day'],
        ['pt-BR', 'Você já votou nesta ação hoje; poderá votar de novo no próximo pregão'],
      ] as const) {
        for (const side of ['bearish', 'bullish']) {
          const again = await t.call('POST', '/stock/index/vote', { token: asha, lang, body: { symbol: 'TCS', side } });
          expect(again.status).toBe(409);
          expect(again.body).toMatchObject({ error: 'vote_already_cast', msg });
        }
      }
      const after = (await t.call('GET', '/stock/index/vote?symbol=TCS', { token: ravi })).body.data;
      expect(after).toMatchObject({ mine: 'bearish', today: { bullish: 1, bearish: 1 } });

      // Another stock is a separate vote.
      const other = await t.call('POST', '/stock/index/vote', {
        token: asha,
        body: { symbol: 'RELIANCE', side: 'bearish' },
      });
      expect(other.body.data).toMatchObject({ symbol: 'NSE:RELIANCE', mine: 'bearish', today: { bearish: 1 } });

      // The next trading day takes a new vote; yesterday's tally stays in the recent days.
      t.clock.advance(DAY);
      const tuesday = (
        await t.call('POST', '/stock/index/vote', { token: asha, body: { symbol: 'TCS', side: 'bearish' } })
      ).body.data;
      expect(tuesday).toMatchObject({ day: '2026-01-06', mine: 'bearish', today: { bullish: 0, bearish: 1 } });
      expect(tuesday.recent[1]).toEqual({ day: '2026-01-05', bullish: 1, bearish: 1 });

      // Saturday's vote counts for Monday's session: on Monday it is already cast.
      t.clock.advance(4 * DAY);
      const saturday = (
        await t.call('POST', '/stock/index/vote', { token: ravi, body: { symbol: 'TCS', side: 'bullish' } })
      ).body.data;
      expect(saturday.day).toBe('2026-01-12');
      t.clock.advance(2 * DAY);
      const monday = await t.call('POST', '/stock/index/vote', {
        token: ravi,
        body: { symbol: 'TCS', side: 'bearish' },
      });
      expect(monday.body.error).toBe('vote_already_cast');

      // Rejections: unknown stock (and a non-stock instrument), a bad side, not signed in.
      for (const lang of ['en-US', 'pt-BR']) {
        const unknown = await t.call('POST', '/stock/index/vote', {
          token: asha,
          lang,
          body: { symbol: 'NOPE', side: 'bullish' },
        });
        expect(unknown.status).toBe(404);
        expect(unknown.body.error).toBe('unknown_instrument');
        expect(unknown.body.msg).toBe(lang === 'pt-BR' ? 'Instrumento desconhecido' : 'Unknown instrument');
      }
      expect((await t.call('GET', '/stock/index/vote?symbol=BTCUSDT', { token: asha })).body.error).toBe(
        'unknown_instrument',
      );
      const badSide = await t.call('POST', '/stock/index/vote', { token: asha, body: { symbol: 'TCS', side: 'up' } });
      expect(badSide.body).toMatchObject({ error: 'validation_failed', fields: { side: 'This value is not valid' } });
      const anonymous = await t.call('POST', '/stock/index/vote', { body: { symbol: 'TCS', side: 'bullish' } });
      expect(anonymous.body).toMatchObject({ code: -1000, error: 'not_logged_in' });
      expect((await t.call('GET', '/stock/index/vote?symbol=TCS')).body.code).toBe(-1000);

      // The console's tallies.
      const admin = await staffToken(t);
      const overview = (await t.call('GET', '/admin/votes', { token: admin })).body.data;
      expect(overview.frameHosts).toEqual(['evoting.example.com']);
      expect(overview.tallies).toContainEqual({
        symbol: 'NSE:TCS',
        name: expect.any(String),
        day: '2026-01-12',
        bullish: 1,
        bearish: 0,
      });
    } finally {
      await t.close();
      await db.close();
    }
  });

  it('serves the vote page address staff set, framed only for allow-listed hosts', async () => {
    const db = await open();
    const t = await testApp(db, { voteFrameHosts: ['evoting.example.com'] });
    try {
      const none = (await t.call('GET', '/index/vote/info?symbol=TCS')).body.data;
      expect(none).toEqual({ url: null, host: null, scope: null, framable: false });
      expect((await t.call('GET', '/index/vote/info?symbol=NOPE')).body.error).toBe('unknown_instrument');

      const admin = await staffToken(t);
      const setAll = await t.call('POST', '/admin/votes/url', {
        token: admin,
        json: { symbol: '', url: 'https://evoting.example.com/agm', reason: 'AGM season e-voting' },
      });
      expect(setAll.body.code, JSON.stringify(setAll.body)).toBe(0);
      await t.call('POST', '/admin/votes/url', {
        token: admin,
        json: { symbol: 'TCS', url: 'https://other.example.org/tcs', reason: 'TCS registrar page' },
      });
      expect((await t.call('GET', '/index/vote/info')).body.data.url).toBe('https://evoting.example.com/agm');
      expect((await t.call('GET', '/index/vote/info?symbol=RELIANCE')).body.data).toEqual({
        url: 'https://evoting.example.com/agm',
        host: 'evoting.example.com',
        scope: 'all',
        framable: true,
      });
      expect((await t.call('GET', '/index/vote/info?symbol=NSE:TCS')).body.data).toEqual({
        url: 'https://other.example.org/tcs',
        host: 'other.example.org',
        scope: 'stock',
        framable: false,
      });

      // Rejections: not https, no reason, not staff.
      for (const [lang, msg] of [
        ['en-US', 'Enter an https:// address of at most 500 characters'],
        ['pt-BR', 'Informe um endereço https:// de no máximo 500 caracteres'],
      ] as const) {
        const bad = await t.call('POST', '/admin/votes/url', {
          token: admin,
          lang,
          json: { symbol: '', url: 'javascript:alert(1)', reason: 'testing' },
        });
        expect(bad.body).toMatchObject({ error: 'vote_url_invalid', fields: { url: msg } });
      }
      expect(
        (
          await t.call('POST', '/admin/votes/url', {
            token: admin,
            json: { symbol: '', url: 'https://a.example', reason: '' },
          })
        ).body.error,
      ).toBe('reason_required');
      const customer = (await t.register('9800000103')).body.data.token as string;
      expect((await t.call('GET', '/admin/votes', { token: customer })).body.code).not.toBe(0);

      // Audited with the reason; clearing the stock's own address falls back to the one for all.
      await t.call('POST', '/admin/votes/url', {
        token: admin,
        json: { symbol: 'NSE:TCS', url: '', reason: 'registrar page withdrawn' },
      });
      expect((await t.call('GET', '/index/vote/info?symbol=TCS')).body.data.scope).toBe('all');
      const audit = await db.query<{ action: string; target_id: string; reason: string }>(
        "SELECT action, target_id, reason FROM audit_log WHERE action = 'vote.url_set' ORDER BY id",
      );
      expect(audit.map((a) => [a.target_id, a.reason])).toEqual([
        ['*', 'AGM season e-voting'],
        ['NSE:TCS', 'TCS registrar page'],
        ['NSE:TCS', 'registrar page withdrawn'],
      ]);

      // The app's pages may frame the allow-listed host and nothing else.
      const page = await t.app.http.inject({ method: 'GET', url: '/' });
      expect(String(page.headers['content-security-policy'])).toContain('frame-src https://evoting.example.com;');
    } finally {
      await t.close();
      await db.close();
    }
  });
});
