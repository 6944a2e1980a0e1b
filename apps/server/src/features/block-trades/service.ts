// Block trades (issue 26 item 6): a staff member creates an offer (a stock, a quantity, a price within the
// block band of the simulator's price, one of the exchange's coming block windows, the disclosed seller);
// a different staff member approves it (audited) and it is published. Eligible customers bid whole lots
// while the window is open, each bid a funds hold (cause allotment) at the offer price, cancellable until
// the close. At the close the job allots pro-rata and settles every bid in settle_allotment batches: paid
// to the offer's platform account `issuer:block-<id>`, shares delivered locked under lock:<hold>, the rest
// released; at the settlement day (T+1 by the calendar) the job releases the locks with void_hold.
// Must hold: every money move is an engine command whose id derives from the row; a refusal changes
// nothing; another customer's bid answers not found. Must not: let anyone choose who gets what.

import { createHash } from 'node:crypto';
import type {
  BlockBidStatus,
  BlockBidView,
  BlockEligibilityView,
  BlockOfferView,
  CreateBlockOfferInput,
  Lang,
  StaffBlockBidView,
  StaffBlockOfferView,
} from '@bourse/contract';
import { errorMessage } from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  ALLOTMENT_BATCH_MAX,
  type AllotmentEntry,
  allotmentLockId,
  type Instrument as EngineInstrument,
  priceToTicks,
  ticksToPrice,
  tradeNotional,
} from '@bourse/engine';
import { calendarOf, type ExchangeId, type Instrument } from '@bourse/market';
import { formatDecimal, parseDecimal, tryParseDecimal } from '@bourse/money';
import type { StockSettings } from '../../config.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError, fieldError, type MessageParams } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { UserRow } from '../accounts/repo.ts';
import type { MarketData } from '../markets/service.ts';
import { appendAudit } from '../staff/audit.ts';
import { unlockAtMs } from '../stocks/settlement-calendar.ts';
import { isStock } from '../stocks/stock-instruments.ts';
import type { Entitlement } from '../vip/service.ts';
import { allotBlock } from './allocation.ts';
import { blockIneligibility } from './eligibility.ts';
import * as repo from './repo.ts';
import { BLOCK_MARKETS, type BlockWindow, blockBand, blockWindowAt, blockWindowsFrom } from './windows.ts';

/** A bid's funds hold; its allotted shares are locked under allotmentLockId(this). */
export const blockHoldId = (bidId: number) => `block-bid:${bidId}`;
/** The platform account an offer's shares come from and its payments go to. */
export const blockSellerAccount = (offerId: number) => `issuer:block-${offerId}` as const;
const link = (offerId: number) => `block-offer:${offerId}`;

/** How many coming windows the console offers to choose from. */
const WINDOW_CHOICES = 6;

type Offer = { row: repo.OfferRow; instrument: Instrument; spec: EngineInstrument };

/** A bid's allotment is recorded (the engine may still have to settle it). */
const SETTLED_BID = new Set<repo.BidStatus>(['allotted', 'partly_allotted', 'not_allotted']);

/** A settlement batch size: 1 to ALLOTMENT_BATCH_MAX (the engine refuses a bigger batch whole). */
function checkedBatchMax(value = ALLOTMENT_BATCH_MAX): number {
  if (!Number.isInteger(value) || value < 1 || value > ALLOTMENT_BATCH_MAX)
    throw new RangeError(`batchMax must be an integer from 1 to ${ALLOTMENT_BATCH_MAX}, not ${value}`);
  return value;
}

/** A bid left 'applied' changed while the allotment was being recorded (rolls the transaction back). */
class BidMoved extends Error {}

export class BlockTrades {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #clock: Clock;
  readonly #settings: StockSettings;
  readonly #batchMax: number;
  /** VIP's entitlement check (features/vip): members qualify without the HNI threshold. */
  readonly #vip: { entitlement(userId: number, feature: 'block_trades'): Promise<Entitlement> } | undefined;
  #running: Promise<void> | null = null;

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    market: MarketData;
    clock: Clock;
    settings: StockSettings;
    /** Bids per settle_allotment; tests set it small to exercise the multi-batch path without 5,000 customers. */
    batchMax?: number;
    vip?: { entitlement(userId: number, feature: 'block_trades'): Promise<Entitlement> };
  }) {
    this.#vip = deps.vip;
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
    this.#batchMax = checkedBatchMax(deps.batchMax);
  }

  // --- customers --------------------------------------------------------------------------------------

  /** Whether `user` may bid in `currency`'s offers, with the reason in `lang` when not. */
  async eligibility(user: UserRow, currency: string, lang: Lang): Promise<BlockEligibilityView> {
    const reason = await this.#ineligibility(user, currency);
    if (reason === null) return { eligible: true, reason: null, message: '' };
    const error = this.#ineligibleError(reason, currency);
    return { eligible: false, reason, message: errorMessage(error.code, lang, error.params?.(lang)) };
  }

  async list(user: UserRow, lang: Lang) {
    const rows = await repo.listPublicOffers(this.#db, 50);
    const offers = rows.flatMap((row) => this.#offer(row) ?? []);
    const items = await Promise.all(offers.map((o) => this.#offerView(o)));
    return { items, eligibility: await this.eligibility(user, this.#currencyOfList(offers), lang) };
  }

  async detail(user: UserRow, offerId: number, lang: Lang) {
    const offer = await this.#publicOffer(offerId);
    const currency = offer.spec.quote.code;
    const bids = await repo.listUserOfferBids(this.#db, user.id, offerId);
    return {
      offer: await this.#offerView(offer),
      eligibility: await this.eligibility(user, currency, lang),
      bids: bids.map((b) => this.#bidView(b, offer)),
      available: formatDecimal(
        this.#engine.state.balance(String(user.id), 'stock', currency).available,
        offer.spec.quote.scale,
      ),
    };
  }

  /**
   * A bid of `quantity` shares (whole lots) at the offer price; the caller checked the transaction password.
   * With `clientKey`, a retry (the answer was lost) answers the first bid instead of placing a second.
   */
  async bid(user: UserRow, input: { offerId: number; quantity: string }, clientKey?: string): Promise<BlockBidView> {
    const offer = await this.#publicOffer(input.offerId);
    const { row, spec } = offer;
    const now = this.#clock.now();
    if (row.status !== 'published' || now >= row.closes_at) throw new AppError('block_offer_closed');
    const currency = spec.quote.code;
    const reason = await this.#ineligibility(user, currency);
    if (reason !== null) throw this.#ineligibleError(reason, currency);
    if (now < row.opens_at) throw this.#outsideWindow(offer);
    const parsed = tryParseDecimal(input.quantity, spec.base.scale);
    if (!parsed.ok || parsed.minor <= 0n || parsed.minor % row.lot !== 0n) {
      throw fieldError('quantity', 'block_quantity_not_in_lots', () => ({ lot: this.#shares(offer, row.lot) }));
    }
    const quantity = parsed.minor;
    if (clientKey !== undefined) {
      const earlier = await this.#earlierBid(user, clientKey, row.id, quantity, offer);
      if (earlier) return earlier;
    }
    if (quantity > row.quantity) {
      throw fieldError('quantity', 'block_quantity_above_offer', () => ({
        quantity: this.#shares(offer, row.quantity),
      }));
    }
    const amount = this.#priceOf(offer, quantity);
    const owner = String(user.id);
    // Short funds are refused before anything is written or sent (the request changes nothing).
    if (this.#engine.state.balance(owner, 'stock', currency).available < amount)
      throw new AppError('insufficient_balance');
    let id: number | undefined;
    try {
      id = await repo.insertBid(this.#db, {
        offerId: row.id,
        userId: user.id,
        quantity,
        amountMinor: amount,
        at: this.#clock.now(),
        ...(clientKey !== undefined ? { clientKey } : {}),
      });
    } catch (error) {
      // The same key inserted by a concurrent retry a moment ago: answer that bid.
      const earlier =
        clientKey === undefined ? undefined : await this.#earlierBid(user, clientKey, row.id, quantity, offer);
      if (earlier) return earlier;
      throw error;
    }
    // Closed (or allotted) since the checks above: nothing was written.
    if (id === undefined) throw new AppError('block_offer_closed');
    const held = await this.#engine.submit({
      type: 'hold_funds',
      id: blockHoldId(id),
      userId: owner,
      wallet: 'stock',
      asset: currency,
      amount: formatDecimal(amount, spec.quote.scale),
      cause: 'allotment',
      link: link(row.id),
    });
    if (!held.ok) {
      await repo.deleteNewBid(this.#db, id);
      throw new AppError(held.code === 'insufficient_balance' ? 'insufficient_balance' : held.code);
    }
    // The offer is not allotted while a bid of it is still 'new' (#settle waits), so a bid placed before the
    // close is in its allotment; one that slipped in as the allotment was recorded is released by the job.
    await repo.moveBid(this.#db, id, 'new', 'applied', this.#clock.now());
    const bid = await repo.findBid(this.#db, user.id, id);
    if (!bid) throw new Error(`block bid ${id} vanished`);
    return this.#bidView(bid, offer);
  }

  /** The bid placed earlier with this key (refused when the key was used for another bid). */
  async #earlierBid(user: UserRow, key: string, offerId: number, quantity: bigint, offer: Offer) {
    const earlier = await repo.findBidByKey(this.#db, user.id, key);
    if (!earlier) return undefined;
    if (earlier.offer_id !== offerId || earlier.quantity !== quantity) throw new AppError('idempotency_key_reused');
    // Still being placed by the first request: its hold decides; answer it as applied once held.
    if (earlier.status === 'new' && !this.#engine.state.fundsHold(blockHoldId(earlier.id)))
      throw new AppError('too_many_requests');
    return this.#bidView({ ...earlier, status: earlier.status === 'new' ? 'applied' : earlier.status }, offer);
  }

  /**
   * Cancels an applied bid before the window closes: its hold is released in full. The cancel is recorded
   * before the release: the job allots only bids still 'applied' (in one transaction), so a bid is either
   * cancelled or allotted, never allotted with its hold gone. A cancel cut short before its release is
   * finished by a retry or by the job at the close.
   */
  async cancel(user: UserRow, bidId: number): Promise<BlockBidView> {
    const bid = await repo.findBid(this.#db, user.id, bidId);
    if (!bid) throw new AppError('block_bid_not_found');
    const offer = await this.#anyOffer(bid.offer_id);
    if (bid.status === 'cancelled') {
      await this.#release(bid.id);
      return this.#bidView(bid, offer);
    }
    if (bid.status !== 'applied' || offer.row.status !== 'published' || this.#clock.now() >= offer.row.closes_at) {
      throw new AppError('block_bid_not_cancellable');
    }
    if (!(await repo.moveBid(this.#db, bid.id, 'applied', 'cancelled', this.#clock.now())))
      throw new AppError('block_bid_not_cancellable');
    await this.#release(bid.id);
    return this.#bidView((await repo.findBid(this.#db, user.id, bid.id)) ?? bid, offer);
  }

  /** Releases a bid's funds hold in full if it is still there (one command id per bid: a re-send is a no-op). */
  async #release(bidId: number): Promise<void> {
    if (this.#engine.state.fundsHold(blockHoldId(bidId)) === undefined) return;
    const released = await this.#engine.submit({
      type: 'void_hold',
      id: `block-cancel:${bidId}`,
      holdId: blockHoldId(bidId),
    });
    if (!released.ok && released.code !== 'hold_not_found') throw new Error(`block release ${bidId}: ${released.code}`);
  }

  /**
   * A bid left out of its offer's allotment: placed as it was recorded, or its hold released without its
   * cancel being recorded (a crash). Released first, then recorded cancelled (a crash between: the next
   * run finds it again with nothing left to release).
   */
  async #retire(bid: repo.BidRow): Promise<void> {
    await this.#release(bid.id);
    await repo.moveBid(this.#db, bid.id, 'applied', 'cancelled', this.#clock.now());
  }

  /** The customer's block-trade orders, newest first (/stock/order/trade/list). */
  async myBids(user: UserRow, page: number, limit: number) {
    const { rows, total } = await repo.listUserBids(this.#db, user.id, limit, (page - 1) * limit);
    const offers = new Map<number, Offer>();
    const items: BlockBidView[] = [];
    for (const bid of rows) {
      let offer = offers.get(bid.offer_id);
      if (!offer) {
        offer = await this.#anyOffer(bid.offer_id);
        offers.set(bid.offer_id, offer);
      }
      items.push(this.#bidView(bid, offer));
    }
    return { items, total };
  }

  // --- the console's desk -----------------------------------------------------------------------------

  /** The coming block windows of a stock's exchange (an offer runs in one of them). */
  windows(symbol: string): BlockWindow[] {
    const instrument = this.#stock(symbol);
    return blockWindowsFrom(instrument.exchange, this.#clock.now(), WINDOW_CHOICES).filter(
      (w) => w.opensAt > this.#clock.now(),
    );
  }

  async create(staffId: number, body: CreateBlockOfferInput & { opensAt: number }): Promise<StaffBlockOfferView> {
    const instrument = this.#stock(body.symbol);
    const spec = this.#engine.state.instrument(instrument.id);
    const market = BLOCK_MARKETS[instrument.exchange];
    if (!spec || !market) throw fieldError('symbol', 'block_stock_not_offered');
    const now = this.#clock.now();
    const window = blockWindowAt(instrument.exchange, body.opensAt);
    if (!window || window.opensAt <= now) throw fieldError('opensAt', 'block_window_invalid');
    const quantity = BigInt(body.quantity);
    const lot = BigInt(body.lot);
    if (lot <= 0n || lot % spec.lotMinor !== 0n || quantity <= 0n || quantity % lot !== 0n) {
      throw fieldError('lot', 'block_lot_invalid');
    }
    const reference = this.#market.lastTicks(instrument.id)?.lastTicks;
    if (!reference) throw fieldError('symbol', 'block_stock_not_offered');
    const band = blockBand(reference, market.bandBps);
    const ticks = priceToTicks(spec, body.price);
    if (!ticks.ok || ticks.value < band.low || ticks.value > band.high) {
      throw fieldError('price', 'block_price_outside_band', () => ({
        low: ticksToPrice(spec, band.low),
        high: ticksToPrice(spec, band.high),
        reference: ticksToPrice(spec, reference),
      }));
    }
    const id = await this.#db.transaction(async (tx) => {
      const id = await repo.insertOffer(tx, {
        instrument_id: instrument.id,
        quantity,
        lot,
        price_ticks: ticks.value,
        reference_ticks: reference,
        band_bps: market.bandBps,
        seller: body.seller,
        opens_at: window.opensAt,
        closes_at: window.closesAt,
        unlocks_at: unlockAtMs(instrument.exchange, window.closesAt),
        created_by: staffId,
        created_at: now,
        create_reason: body.reason,
      });
      await appendAudit(
        tx,
        {
          staffId,
          action: 'block_offer.create',
          targetType: 'block_offer',
          targetId: String(id),
          reason: body.reason,
          detail: {
            symbol: instrument.id,
            quantity: body.quantity,
            lot: body.lot,
            price: body.price,
            reference: ticksToPrice(spec, reference),
            opensAt: window.opensAt,
            seller: body.seller,
          },
        },
        now,
      );
      return id;
    });
    return this.staffOffer(id);
  }

  /** A different staff member approves (publishes) or rejects a pending offer. */
  async decide(staffId: number, id: number, decision: 'approve' | 'reject', reason: string) {
    const row = await repo.findOffer(this.#db, id);
    if (!row) throw new AppError('block_offer_not_found');
    if (row.status !== 'pending_approval') throw new AppError('block_offer_already_decided');
    if (row.created_by === staffId) throw new AppError('block_offer_same_staff');
    // An offer whose window has begun can only be rejected: customers would have missed part of it.
    if (decision === 'approve' && this.#clock.now() >= row.opens_at) throw new AppError('block_window_invalid');
    const to = decision === 'approve' ? 'published' : 'rejected';
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if (!(await repo.moveOffer(tx, id, 'pending_approval', to, { decidedBy: staffId, at, reason })))
        throw new AppError('block_offer_already_decided');
      await appendAudit(
        tx,
        {
          staffId,
          action: `block_offer.${decision}`,
          targetType: 'block_offer',
          targetId: String(id),
          reason,
          detail: {},
        },
        at,
      );
    });
    return this.staffOffer(id);
  }

  async staffOffers(): Promise<StaffBlockOfferView[]> {
    const rows = await repo.listOffers(this.#db, 200);
    return Promise.all(rows.flatMap((row) => this.#offer(row) ?? []).map((o) => this.#staffView(o)));
  }

  async staffOffer(id: number): Promise<StaffBlockOfferView> {
    const row = await repo.findOffer(this.#db, id);
    const offer = row && this.#offer(row);
    if (!offer) throw new AppError('block_offer_not_found');
    return this.#staffView(offer);
  }

  /** An offer with every bid on it and its allotment (read only: nobody sets who gets what). */
  async staffDetail(id: number): Promise<{ offer: StaffBlockOfferView; bids: StaffBlockBidView[] }> {
    const offer = await this.#anyOffer(id);
    const bids = await repo.listOfferBids(this.#db, id);
    return {
      offer: await this.#staffView(offer),
      bids: bids.map((b) => ({ ...this.#bidView(b, offer), userId: b.user_id })),
    };
  }

  /** A staff member marks a customer HNI (eligible without the wallet threshold), audited. */
  async markHni(staffId: number, userId: number, reason: string): Promise<void> {
    const at = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if (!(await repo.userExists(tx, userId))) throw new AppError('block_customer_not_found');
      await repo.markHni(tx, { userId, staffId, at, reason });
      await appendAudit(
        tx,
        { staffId, action: 'block.mark_hni', targetType: 'user', targetId: String(userId), reason, detail: {} },
        at,
      );
    });
  }

  /**
   * Paper mode, once (no offer yet): a published offer of RELIANCE in the coming (or open) block window,
   * and one in the last window that closed, settled by the job like any other. Created by the demo administrator and published by the system (decided_by 0,
   * shown as 'system'), audited under the administrator as demo data.
   */
  async seedDemo(staffId: number): Promise<void> {
    if ((await repo.countOffers(this.#db)) > 0) return;
    const instrument = this.#market.instrument('NSE:RELIANCE');
    const spec = instrument && this.#engine.state.instrument(instrument.id);
    const reference = instrument && this.#market.lastTicks(instrument.id)?.lastTicks;
    if (!instrument || !spec || !reference) return;
    const now = this.#clock.now();
    const next = blockWindowsFrom(instrument.exchange, now, 1)[0];
    const last = blockWindowsFrom(instrument.exchange, now - 5 * 86_400_000, 40)
      .filter((w) => w.closesAt <= now)
      .at(-1);
    if (!next || !last) return;
    const lot = 10n * spec.lotMinor;
    const put = (window: BlockWindow, quantity: bigint, seller: string) =>
      this.#db.transaction(async (tx) => {
        const id = await repo.insertOffer(tx, {
          instrument_id: instrument.id,
          quantity,
          lot,
          price_ticks: reference,
          reference_ticks: reference,
          band_bps: BLOCK_MARKETS[instrument.exchange]?.bandBps ?? 100,
          seller,
          opens_at: window.opensAt,
          closes_at: window.closesAt,
          unlocks_at: unlockAtMs(instrument.exchange, window.closesAt),
          created_by: staffId,
          created_at: now,
          create_reason: 'Paper mode: demo block offer',
        });
        await repo.moveOffer(tx, id, 'pending_approval', 'published', { decidedBy: 0, at: now, reason: 'Paper mode' });
        await appendAudit(
          tx,
          {
            staffId,
            action: 'block_offer.demo',
            targetType: 'block_offer',
            targetId: String(id),
            reason: 'Paper mode: demo block offer',
            detail: { symbol: instrument.id, quantity: String(quantity), opensAt: window.opensAt },
          },
          now,
        );
        return id;
      });
    // The demo customer's own balances and ledger stay as the grant left them (other demos and tests
    // rely on them): the settled demo offer had no bids.
    await put(last, 500n * spec.lotMinor, 'Demo Promoter Holdings Ltd');
    await put(next, 2000n * spec.lotMinor, 'Demo Promoter Holdings Ltd');
  }

  // --- the scheduled job ------------------------------------------------------------------------------

  /**
   * Allots every published offer whose window has closed and releases the locks of allotments whose
   * settlement day has begun. Runs with the market pump and at start-up; one run at a time.
   */
  run(): Promise<void> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(): Promise<void> {
    const now = this.#clock.now();
    await this.#resumeNewBids();
    for (const row of await repo.offersToSettle(this.#db, now)) {
      const offer = this.#offer(row);
      if (offer) await this.#settle(offer);
    }
    for (const bid of await repo.lateBids(this.#db)) await this.#retire(bid);
    for (const bid of await repo.bidsToUnlock(this.#db, now)) {
      const result = await this.#engine.submit({
        type: 'void_hold',
        id: `block-unlock:${bid.id}`,
        holdId: allotmentLockId(blockHoldId(bid.id)),
      });
      if (!result.ok && result.code !== 'hold_not_found') throw new Error(`block unlock ${bid.id}: ${result.code}`);
      await repo.markUnlocked(this.#db, bid.id, now);
    }
  }

  /** A bid left 'new' by a crash: applied if its hold was committed, else forgotten (nothing moved). */
  async #resumeNewBids(): Promise<void> {
    for (const bid of await repo.listNewBids(this.#db)) {
      if (this.#clock.now() - bid.created_at < 60_000) continue; // still being placed
      if (this.#engine.state.fundsHold(blockHoldId(bid.id)))
        await repo.moveBid(this.#db, bid.id, 'new', 'applied', this.#clock.now());
      else await repo.deleteNewBid(this.#db, bid.id);
    }
  }

  /**
   * An offer's close, in three steps each safe to repeat after a crash: bids whose hold is gone are left
   * out (cancelled), the allotment is recorded on every remaining bid in one transaction, then the engine
   * settles the recorded bids whose holds remain, in batches named by their content; the offer is marked
   * settled once every batch is through.
   */
  async #settle(offer: Offer): Promise<void> {
    const { row } = offer;
    // A bid still being placed (its hold in flight) is waited for: the next run allots it with the rest.
    if ((await repo.listOfferBids(this.#db, row.id, 'new')).length > 0) return;
    const bids = await repo.listOfferBids(this.#db, row.id);
    const recorded = bids.some((b) => SETTLED_BID.has(b.status));
    for (const bid of bids) {
      if (bid.status === 'cancelled') await this.#release(bid.id);
      // After the allotment was recorded, a bid still 'applied' came too late to be in it.
      else if (bid.status === 'applied' && (recorded || this.#holdReleased(bid.id))) await this.#retire(bid);
    }
    if (!recorded && !(await this.#recordAllotment(offer))) return;
    await this.#sendAllotment(offer);
    await repo.moveOffer(this.#db, row.id, 'published', 'settled', { at: this.#clock.now() });
  }

  /** The hold is gone without having been settled: its funds were released (a cancel cut short). */
  #holdReleased(bidId: number): boolean {
    const holdId = blockHoldId(bidId);
    return this.#engine.state.fundsHold(holdId) === undefined && !this.#engine.state.transferPosted(`${holdId}:allot`);
  }

  /**
   * The pro-rata allotment of the offer's applied bids, recorded in one transaction. False (nothing
   * recorded) when a bid was cancelled meanwhile: the next run allots again without it.
   */
  async #recordAllotment(offer: Offer): Promise<boolean> {
    const { row } = offer;
    const bids = await repo.listOfferBids(this.#db, row.id, 'applied');
    const allotted = allotBlock(
      bids.map((b) => ({ id: b.id, quantity: b.quantity, heldMinor: b.amount_minor })),
      row.quantity,
      row.lot,
      (q) => this.#priceOf(offer, q),
    );
    const at = this.#clock.now();
    try {
      await this.#db.transaction(async (tx) => {
        for (const [i, a] of allotted.entries()) {
          const bid = bids[i] as repo.BidRow;
          const to: BlockBidStatus =
            a.allotted === 0n ? 'not_allotted' : a.allotted === bid.quantity ? 'allotted' : 'partly_allotted';
          const moved = await repo.moveBid(tx, bid.id, 'applied', to, at, {
            allotted: a.allotted,
            paidMinor: a.payMinor,
          });
          if (!moved) throw new BidMoved();
        }
      });
    } catch (error) {
      if (error instanceof BidMoved) return false;
      throw error;
    }
    return true;
  }

  /**
   * Settles the recorded bids whose holds remain (a settled one has none). A batch's id is a digest of its
   * entries: a batch the engine refused is never re-sent under the same id with the same fate sealed.
   */
  async #sendAllotment(offer: Offer): Promise<void> {
    const { row, spec } = offer;
    const pending = (await repo.listOfferBids(this.#db, row.id)).filter(
      (b) => SETTLED_BID.has(b.status) && this.#engine.state.fundsHold(blockHoldId(b.id)) !== undefined,
    );
    for (let start = 0; start < pending.length; start += this.#batchMax) {
      const part = pending.slice(start, start + this.#batchMax);
      const entries: AllotmentEntry[] = part.map((b) => [
        blockHoldId(b.id),
        formatDecimal(b.paid_minor, spec.quote.scale),
        formatDecimal(b.allotted, spec.base.scale),
      ]);
      const digest = createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 16);
      const result = await this.#engine.submit({
        type: 'settle_allotment',
        id: `block-settle:${row.id}:${digest}`,
        to: blockSellerAccount(row.id),
        asset: spec.base.code,
        wallet: 'stock',
        lock: true,
        entries,
        link: link(row.id),
      });
      // Refused because a hold went meanwhile: the next run sends the rest under another id.
      if (!result.ok) throw new Error(`block offer ${row.id} batch ${digest}: ${result.code}`);
    }
  }

  // --- helpers ----------------------------------------------------------------------------------------

  async #ineligibility(user: UserRow, currency: string) {
    const scale = this.#engine.state.asset(currency)?.scale ?? 2;
    const threshold = this.#settings.blockHniMinAssets[currency];
    const vip = await this.#vip?.entitlement(user.id, 'block_trades');
    return blockIneligibility({
      kycVerified: user.id_status === 'succ',
      markedHni: await repo.isMarkedHni(this.#db, user.id),
      stockBalanceMinor: this.#engine.state.balance(String(user.id), 'stock', currency).balance,
      // No threshold for a currency: only staff-marked HNI customers qualify.
      thresholdMinor: threshold === undefined ? 2n ** 127n : parseDecimal(threshold, scale),
      isVip: vip?.granted ?? false,
      vipRequired: vip?.required ?? false,
    });
  }

  #ineligibleError(reason: 'kyc' | 'not_hni' | 'not_vip', currency: string): AppError {
    if (reason === 'kyc') return new AppError('block_not_eligible_kyc');
    if (reason === 'not_vip') return new AppError('vip_required');
    const min = this.#settings.blockHniMinAssets[currency];
    return new AppError('block_not_eligible', undefined, (lang) => ({
      min: min === undefined ? '—' : `${new Intl.NumberFormat(lang).format(Number(min))} ${currency}`,
    }));
  }

  #outsideWindow(offer: Offer): AppError {
    const zone = calendarOf(offer.instrument.exchange as ExchangeId).timeZone;
    const params: MessageParams = (lang) => ({
      opens: new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
        offer.row.opens_at,
      ),
      closes: new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: zone }).format(offer.row.closes_at),
    });
    return new AppError('block_outside_window', undefined, params);
  }

  /** The list's eligibility is about its first offer's currency (the deployment's stock currency). */
  #currencyOfList(offers: readonly Offer[]): string {
    return offers[0]?.spec.quote.code ?? Object.keys(this.#settings.blockHniMinAssets)[0] ?? 'INR';
  }

  #stock(symbol: string): Instrument {
    const instrument = this.#market.instrument(symbol);
    if (!instrument || !isStock(instrument)) throw fieldError('symbol', 'unknown_instrument');
    return instrument;
  }

  #offer(row: repo.OfferRow): Offer | undefined {
    const instrument = this.#market.instrument(row.instrument_id);
    const spec = this.#engine.state.instrument(row.instrument_id);
    return instrument && spec ? { row, instrument, spec } : undefined;
  }

  async #anyOffer(id: number): Promise<Offer> {
    const row = await repo.findOffer(this.#db, id);
    const offer = row && this.#offer(row);
    if (!offer) throw new AppError('block_offer_not_found');
    return offer;
  }

  /** Offers customers may see: published or settled (pending and rejected ones are not found). */
  async #publicOffer(id: number): Promise<Offer> {
    const offer = await this.#anyOffer(id);
    if (offer.row.status !== 'published' && offer.row.status !== 'settled') throw new AppError('block_offer_not_found');
    return offer;
  }

  #priceOf(offer: Offer, quantity: bigint): bigint {
    return tradeNotional(offer.spec, offer.row.price_ticks, Number(quantity / offer.spec.lotMinor));
  }

  #shares(offer: Offer, quantity: bigint): string {
    return formatDecimal(quantity, offer.spec.base.scale);
  }

  async #offerView(offer: Offer): Promise<BlockOfferView> {
    const { row, instrument, spec } = offer;
    const now = this.#clock.now();
    const band = blockBand(row.reference_ticks, row.band_bps);
    let totals: { bid: bigint; allotted: bigint } | null = null;
    if (row.status === 'settled') {
      totals = { bid: 0n, allotted: 0n };
      for (const b of await repo.listOfferBids(this.#db, row.id)) {
        if (b.status === 'cancelled') continue;
        totals.bid += b.quantity;
        totals.allotted += b.allotted;
      }
    }
    return {
      id: row.id,
      symbol: instrument.id,
      name: instrument.name,
      exchange: instrument.exchange,
      currency: spec.quote.code,
      price: ticksToPrice(spec, row.price_ticks),
      referencePrice: ticksToPrice(spec, row.reference_ticks),
      bandLow: ticksToPrice(spec, band.low),
      bandHigh: ticksToPrice(spec, band.high),
      quantity: this.#shares(offer, row.quantity),
      lot: this.#shares(offer, row.lot),
      lotAmount: formatDecimal(this.#priceOf(offer, row.lot), spec.quote.scale),
      seller: row.seller,
      opensAt: row.opens_at,
      closesAt: row.closes_at,
      unlocksAt: row.unlocks_at,
      phase:
        row.status === 'settled'
          ? 'settled'
          : now < row.opens_at
            ? 'upcoming'
            : now < row.closes_at
              ? 'open'
              : 'closed',
      bidQuantity: totals && this.#shares(offer, totals.bid),
      allottedQuantity: totals && this.#shares(offer, totals.allotted),
    };
  }

  async #staffView(offer: Offer): Promise<StaffBlockOfferView> {
    const { row } = offer;
    return {
      ...(await this.#offerView(offer)),
      status: row.status,
      sellerAccount: blockSellerAccount(row.id),
      createdBy: row.created_by,
      createdByName: row.created_by_name,
      createdAt: row.created_at,
      createReason: row.create_reason,
      decidedBy: row.decided_by,
      decidedByName: row.decided_by_name,
      decidedAt: row.decided_at,
      decisionReason: row.decision_reason,
    };
  }

  #bidView(bid: repo.BidRow, offer: Offer): BlockBidView {
    const { spec, instrument, row } = offer;
    const scale = spec.quote.scale;
    const settled = bid.status === 'allotted' || bid.status === 'partly_allotted' || bid.status === 'not_allotted';
    return {
      id: bid.id,
      offerId: bid.offer_id,
      symbol: instrument.id,
      name: instrument.name,
      currency: spec.quote.code,
      price: ticksToPrice(spec, row.price_ticks),
      quantity: this.#shares(offer, bid.quantity),
      amount: formatDecimal(bid.amount_minor, scale),
      allottedQuantity: this.#shares(offer, bid.allotted),
      paid: formatDecimal(bid.paid_minor, scale),
      released: formatDecimal(settled || bid.status === 'cancelled' ? bid.amount_minor - bid.paid_minor : 0n, scale),
      // 'new' is never shown (the repo leaves it out).
      status: bid.status as BlockBidStatus,
      locked: bid.allotted > 0n && bid.unlocked_at === null,
      unlocksAt: row.unlocks_at,
      opensAt: row.opens_at,
      closesAt: row.closes_at,
      createdAt: bid.created_at,
    };
  }
}
