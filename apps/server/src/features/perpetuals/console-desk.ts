// The staff console's perpetuals desk (issue 25 item 6): the insurance fund's balance and ledger lines, open
// interest per contract from the engine's positions, and liquidations with their auto-deleveraging from the
// customers' records (perp_records, projected with each liquidate command: records.ts).
// Must not: change anything (no command is sent from here: staff cannot set a price or close a position).

import type { LiquidationRecord, OpenInterestView, StaffPerpetualsDesk } from '@bourse/contract';
import type { Sql } from '@bourse/db';
import { formatDecimal, notionalMinor } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import * as repo from './repo.ts';

const FUND = 'platform:insurance_fund';
/** Lines and liquidations shown: the newest. */
const NEWEST = 200;

type Line = {
  transfer_id: string;
  at: number | string;
  debit: string;
  credit: string;
  debit_owner: string;
  credit_owner: string;
  asset: string;
  amount: string | number;
  cause: string;
  link: string;
};

export class PerpetualsDesk {
  readonly #db: Sql;
  readonly #engine: TradingEngine;

  constructor(d: { db: Sql; engine: TradingEngine }) {
    this.#db = d.db;
    this.#engine = d.engine;
  }

  async desk(): Promise<StaffPerpetualsDesk> {
    const engine = this.#engine.state;
    const ids = engine.perpetualIds();
    // Every contract is margined in its collateral; USDT today (the fund is per collateral).
    const collateral = ids.length > 0 ? (engine.instrument(ids[0] as string)?.quote.code ?? 'USDT') : 'USDT';
    const scale = engine.asset(collateral)?.scale ?? 6;
    const money = (minor: bigint) => formatDecimal(minor, scale);
    const fund = engine.balance(FUND, 'platform', collateral);
    const fundLines = await this.#db.query<Line>(
      `SELECT * FROM ledger_transfers WHERE (debit_owner = $1 OR credit_owner = $1) AND asset = $2
       ORDER BY seq DESC, transfer_id DESC LIMIT $3`,
      [FUND, collateral, NEWEST],
    );
    const liquidationRows = await repo.newestLiquidationRows(this.#db, NEWEST * 4);
    return {
      insuranceFund: {
        asset: collateral,
        balance: money(fund.balance),
        lines: fundLines.map((row) => {
          const incoming = row.credit_owner === FUND;
          return {
            transferId: row.transfer_id,
            at: Number(row.at),
            amount: money(incoming ? BigInt(row.amount) : -BigInt(row.amount)),
            cause: row.cause,
            link: row.link,
            counterparty: incoming ? row.debit_owner : row.credit_owner,
          };
        }),
      },
      openInterest: ids.flatMap((id) => this.#openInterest(id)),
      liquidations: liquidationsOf(liquidationRows, (id) => engine.instrument(id)?.quote.code ?? collateral, money),
    };
  }

  #openInterest(id: string): OpenInterestView[] {
    const engine = this.#engine.state;
    const def = engine.instrument(id);
    if (def === undefined) return [];
    let long = 0n;
    let short = 0n;
    const positions = engine.positions(id);
    for (const p of positions) {
      if (p.sizeLots > 0) long += BigInt(p.sizeLots);
      else short += BigInt(-p.sizeLots);
    }
    const mark = engine.market(id)?.markTicks ?? null;
    const size = (lots: bigint) => formatDecimal(lots * def.lotMinor, def.base.scale);
    return [
      {
        instrumentId: id,
        base: def.base.code,
        quote: def.quote.code,
        positions: positions.length,
        longSize: size(long),
        shortSize: size(short),
        markPrice: mark === null ? null : formatDecimal(BigInt(mark) * def.tickMinor, def.quote.scale),
        notionalAtMark:
          mark === null
            ? null
            : formatDecimal(
                notionalMinor(BigInt(mark) * def.tickMinor, long * def.lotMinor, def.baseUnit, 'down'),
                def.quote.scale,
              ),
      },
    ];
  }
}

/**
 * One record per liquidation command, newest first: its `<command>:liquidation` row (the customer, what the
 * fund got or paid) and its `<command>:adl:<user>` rows (the counterparties, in the order they were
 * deleveraged). The link is the ledger lines' (perp:liquidation:<command>). Rows of a liquidation cut off
 * by the limit without their own row are left out.
 */
export function liquidationsOf(
  rows: readonly repo.LiquidationRow[],
  assetOf: (instrumentId: string) => string,
  money: (minor: bigint) => string,
): LiquidationRecord[] {
  const byCommand = new Map<string, { main?: repo.LiquidationRow; adl: string[] }>();
  for (const row of rows) {
    const at = row.kind === 'adl' ? row.record_key.lastIndexOf(':adl:') : row.record_key.lastIndexOf(':liquidation');
    const command = row.record_key.slice(0, at);
    let group = byCommand.get(command);
    if (group === undefined) {
      group = { adl: [] };
      byCommand.set(command, group);
    }
    if (row.kind === 'liquidation') group.main = row;
    // Rows come newest first: each earlier counterparty goes before the ones already seen.
    else group.adl.unshift(row.user_id);
  }
  return [...byCommand].flatMap(([command, { main, adl }]) =>
    main === undefined
      ? []
      : [
          {
            link: `perp:liquidation:${command}`,
            at: Number(main.at),
            userId: main.user_id,
            asset: assetOf(main.instrument_id),
            insuranceFund: money(BigInt(main.insurance_fund)),
            adlCounterparties: adl,
          },
        ],
  );
}
