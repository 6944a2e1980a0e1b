// Runtime listing: a new stock after its IPO, a new coin after its offering, added to the market while the
// server runs and durably. Listing persists the row, adds the instrument to the catalogue, registers the
// coin's asset (journaled register_asset) and the engine instrument (journaled register_instrument, by the
// paper venue or the spot liquidity bot, which then quote it), and starts the simulator on it near its
// start price. Start-up re-applies every row before the market opens (reapplyListings), so a restart
// keeps what was listed. Every engine command's id is derived from the instrument, so a repeat is a no-op.
//
// How to call it (an IPO's listing day, a coin offering's close), from a feature given `listings`:
//   await listings.listStock({ exchange: 'NSE', symbol: 'NOVAIND', name: 'Nova Industries', issuePrice: '120.00' }, 'ipo:7');
//   await listings.listCoin({ symbol: 'NOVA', name: 'Nova', scale: 8, startPrice: '0.1000' }, 'coin-offering:3');
// Both answer the instrument (listing the same definition again answers it again; a different one under the
// same id throws). The second argument says why it was listed (the row that caused it), kept for audit.

import type { StaffListingsView } from '@bourse/contract';
import type { Db } from '@bourse/db';
import {
  addInstrument,
  findInstrument,
  INSTRUMENTS,
  type Instrument,
  type NewCoin,
  type NewStock,
  newCoinInstrument,
  newStockInstrument,
} from '@bourse/market';
import type { PaperVenue } from '../../adapters/venue/paper/paper-venue.ts';
import type { SpotSettings, StockSettings } from '../../config.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MarketData } from '../markets/service.ts';
import type { LiquidityBot } from '../spot/liquidity-bot.ts';
import * as repo from './repo.ts';

/**
 * At start-up, before the market data opens: puts every stored listing back in the catalogue and makes
 * sure each coin's asset is registered in the engine (a crash between the two steps of a listing).
 */
export async function reapplyListings(db: Db, engine: TradingEngine): Promise<void> {
  for (const row of await repo.listListings(db)) {
    addInstrument(JSON.parse(row.definition) as Instrument);
    if (row.asset !== null && row.asset_scale !== null) await registerCoinAsset(engine, row.asset, row.asset_scale);
  }
}

async function registerCoinAsset(engine: TradingEngine, asset: string, scale: number): Promise<void> {
  const known = engine.state.asset(asset);
  if (known) {
    if (known.scale !== scale) throw new Error(`asset ${asset} is registered with scale ${known.scale}, not ${scale}`);
    return;
  }
  const result = await engine.submit({ type: 'register_asset', id: `asset:${asset}`, asset, scale, kind: 'crypto' });
  if (!result.ok) throw new Error(`register_asset ${asset} refused: ${result.code}`);
}

export class Listings {
  readonly #db: Db;
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #venue: PaperVenue;
  readonly #bot: LiquidityBot;
  readonly #clock: Clock;
  readonly #settings: { stocks: StockSettings; spot: SpotSettings };

  constructor(deps: {
    db: Db;
    engine: TradingEngine;
    market: MarketData;
    venue: PaperVenue;
    bot: LiquidityBot;
    clock: Clock;
    settings: { stocks: StockSettings; spot: SpotSettings };
  }) {
    this.#db = deps.db;
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#venue = deps.venue;
    this.#bot = deps.bot;
    this.#clock = deps.clock;
    this.#settings = deps.settings;
  }

  /**
   * The console's listings desk: every instrument in the catalogue with its trading state now and where it
   * came from (the built-in catalogue, or the runtime listing's cause). Reads only.
   */
  async desk(): Promise<StaffListingsView> {
    const runtime = new Map((await repo.listListings(this.#db)).map((row) => [row.instrument_id, row]));
    const items = INSTRUMENTS.map((instrument) => {
      const quote = this.#market.quote(instrument);
      const listing = runtime.get(instrument.id);
      return {
        id: instrument.id,
        symbol: instrument.symbol,
        name: instrument.name,
        kind: instrument.kind,
        exchange: instrument.exchange,
        currency: instrument.currency,
        listed: instrument.listed,
        isOpen: quote.isOpen,
        price: quote.price,
        changePct: quote.changePct,
        tickSize: instrument.tickSize,
        lot: quote.lot,
        bandPct: instrument.priceBandPct,
        source: listing?.source ?? 'catalogue',
        listedAt: listing ? Number(listing.listed_at) : null,
      };
    });
    const count = (kind: string) => items.filter((item) => item.kind === kind).length;
    return {
      items,
      counts: {
        stock: count('stock'),
        index: count('index'),
        crypto: count('crypto'),
        fx: count('fx'),
        runtime: items.filter((item) => item.listedAt !== null).length,
      },
    };
  }

  /** Registers a coin as an engine asset (journaled, once); a coin offering does it before its allotment. */
  registerCoinAsset(asset: string, scale: number): Promise<void> {
    return registerCoinAsset(this.#engine, asset, scale);
  }

  /** Lists a stock after its IPO: the simulator starts it at the issue price, the paper venue quotes it. */
  async listStock(stock: NewStock, source: string): Promise<Instrument> {
    const instrument = newStockInstrument(stock);
    await this.#persist(instrument, 'stock', null, source);
    await this.#market.publishNewInstruments();
    await this.#venue.addStock(instrument, this.#settings.stocks);
    return instrument;
  }

  /** Lists a coin after its offering: its asset, its USDT pair (quoted by the liquidity bot), its price. */
  async listCoin(coin: NewCoin, source: string): Promise<Instrument> {
    const instrument = newCoinInstrument(coin);
    await registerCoinAsset(this.#engine, coin.symbol, coin.scale);
    await this.#persist(instrument, 'coin', { asset: coin.symbol, scale: coin.scale }, source);
    await this.#market.publishNewInstruments();
    await this.#bot.addPair(instrument, this.#settings.spot);
    return instrument;
  }

  async #persist(
    instrument: Instrument,
    kind: 'stock' | 'coin',
    asset: { asset: string; scale: number } | null,
    source: string,
  ): Promise<void> {
    const known = findInstrument(instrument.id);
    if (known && JSON.stringify(known) !== JSON.stringify(instrument)) {
      throw new Error(`instrument ${instrument.id} is already listed`);
    }
    await repo.insertListing(this.#db, {
      instrument_id: instrument.id,
      kind,
      definition: JSON.stringify(instrument),
      asset: asset?.asset ?? null,
      asset_scale: asset?.scale ?? null,
      source,
      listed_at: this.#clock.now(),
    });
    addInstrument(instrument);
  }
}
