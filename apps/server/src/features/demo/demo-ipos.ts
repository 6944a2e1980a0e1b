// Paper mode's demo IPOs, so the IPO pages have content on a fresh start: one closed and drawn (the demo
// customer applied for it and the draw ran from its committed seed), one open now, one upcoming. Seeded
// once (only when no IPO exists), through the IPO feature's own service and timed job, run on a clock
// set back in time for the steps that happened before now; the listings are published by the system
// (audited as paper-mode demo data) rather than by two staff members.

import { beaconRoundTime } from '@bourse/contract/beacon';
import type { Db } from '@bourse/db';
import { addTradingDays, sessionOn, tradingDayOf } from '@bourse/market';
import type { Clock } from '../../platform/clock.ts';
import { findUserById } from '../accounts/repo.ts';
import * as ipoRepo from '../ipo/repo.ts';
import type { Ipos } from '../ipo/service.ts';
import { appendAudit } from '../staff/audit.ts';

const EXCHANGE = 'NSE';
/** The system, as the creator and publisher of demo listings (staff ids start at 1). */
const SYSTEM_STAFF = 0;

type DemoIpo = {
  symbol: string;
  name: string;
  issuer: string;
  band: [string, string];
  lot: number;
  shares: string;
  /** Trading days from today: when it opens and closes. */
  opens: number;
  closes: number;
};

const DRAWN: DemoIpo = {
  symbol: 'SURYAPWR',
  name: 'Surya Power (demo)',
  issuer: 'Surya Power Ltd (fictitious)',
  band: ['210', '222'],
  lot: 67,
  shares: '670000',
  opens: -3,
  closes: -1,
};
const OPEN: DemoIpo = {
  symbol: 'KAVERIAGRO',
  name: 'Kaveri Agro (demo)',
  issuer: 'Kaveri Agro Foods Ltd (fictitious)',
  band: ['95', '100'],
  lot: 150,
  shares: '1500000',
  opens: -1,
  closes: 2,
};
const UPCOMING: DemoIpo = {
  symbol: 'BHARATEV',
  name: 'Bharat EV Motors (demo)',
  issuer: 'Bharat EV Motors Ltd (fictitious)',
  band: ['410', '432'],
  lot: 34,
  shares: '340000',
  opens: 3,
  closes: 5,
};

const at = (ms: number): Clock => ({ now: () => ms });

export async function seedDemoIpos(deps: { db: Db; clock: Clock; ipos: Ipos; demoUserId: number }): Promise<void> {
  const { db, ipos } = deps;
  if ((await ipoRepo.listIpos(db, { statuses: [], limit: 1, offset: 0 })).total > 0) return;
  const now = deps.clock.now();
  const today = tradingDayOf(EXCHANGE, now);
  const day = (offset: number) => addTradingDays(EXCHANGE, today, offset);
  const openOf = (offset: number) => sessionOn(EXCHANGE, day(offset))?.openMs ?? now;

  /** Creates the listing as of the trading day before it opens, and publishes it as the system. */
  const publish = async (ipo: DemoIpo): Promise<number> => {
    const created = ipos.withClock(at(Math.min(now, openOf(ipo.opens - 1))));
    const view = await created.create(SYSTEM_STAFF, {
      issuer: ipo.issuer,
      exchange: EXCHANGE,
      symbol: ipo.symbol,
      name: ipo.name,
      priceLow: ipo.band[0],
      priceHigh: ipo.band[1],
      lotSize: ipo.lot,
      totalShares: ipo.shares,
      retailPct: 35,
      niiPct: 15,
      qibPct: 50,
      opensOn: day(ipo.opens),
      closesOn: day(ipo.closes),
      note: 'paper-mode demo data',
    });
    await db.transaction(async (tx) => {
      await ipoRepo.moveIpo(tx, view.id, 'draft', 'upcoming', now, {
        approved_by: SYSTEM_STAFF,
        review_reason: 'paper-mode demo data',
      });
      await appendAudit(
        tx,
        {
          staffId: null,
          action: 'ipo.approve',
          targetType: 'ipo',
          targetId: String(view.id),
          reason: 'Paper mode: demo listing published by the system',
          detail: { symbol: ipo.symbol },
        },
        now,
      );
    });
    return view.id;
  };

  // The drawn one: opened, the demo customer applied (2 lots at cut-off), closed and drawn, in the past.
  const drawnId = await publish(DRAWN);
  const drawn = (await ipoRepo.findIpo(db, drawnId)) as ipoRepo.IpoRow;
  await ipos.withClock(at(drawn.opens_at)).tick();
  const demo = await findUserById(db, deps.demoUserId);
  if (demo)
    await ipos
      .withClock(at(drawn.opens_at + 60_000))
      .applyOnline(demo, { ipoId: drawnId, bid1Lots: 2, bid1Price: 'cutoff' }, async () => {
        // The system applies on the demo customer's behalf: no transaction password to check.
      });
  await ipos.withClock(at(drawn.closes_at)).tick();
  // The draw waits for the beacon round fixed at the opening (published just after the close).
  const closed = (await ipoRepo.findIpo(db, drawnId)) as ipoRepo.IpoRow;
  if (closed.beacon_source !== null && closed.beacon_round !== null)
    await ipos.withClock(at(beaconRoundTime(closed.beacon_source, closed.beacon_round))).tick();

  await publish(OPEN);
  await publish(UPCOMING);
}
