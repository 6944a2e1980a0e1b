// The browser tests' clock hook (POST /test/clock/advance) through the real stack: what it takes as a
// number of milliseconds. It changes no database, so the embedded one is enough.

import { openDb } from '@bourse/db';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp } from '../../testing.ts';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp(await openDb({ dataDir: null }));
});
afterAll(() => t.close());

it('takes a whole number of milliseconds as JSON or form digits, and refuses what z.coerce read as one, leaving the clock', async () => {
  const start = t.clock.now();
  const advance = (ms: unknown) => t.call('POST', '/test/clock/advance', { json: { ms } });
  // z.coerce read true as 1, [5] as 5, " 60000 " and "6e4" as 60000; null and "" as 0 (then refused).
  for (const ms of [true, [5], ' 60000 ', '6e4', '0x10', '1.0', null, '', 0, -1, 31 * 86_400_000 + 1]) {
    const refused = await advance(ms);
    expect(refused.body.fields, JSON.stringify(ms)).toEqual({ ms: 'This value is not valid' });
  }
  expect(t.clock.now()).toBe(start);
  expect((await advance(60_000)).body.data).toEqual({ now: start + 60_000 });
  const form = await t.call('POST', '/test/clock/advance', { body: { ms: '1000' } });
  expect(form.body.data).toEqual({ now: start + 61_000 });
});
