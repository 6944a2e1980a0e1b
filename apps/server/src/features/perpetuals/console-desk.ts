// The staff console's perpetuals desk (issue 25 item 6): the insurance fund's balance and ledger lines, open
// interest per contract from the engine's positions, and liquidations with their auto-deleveraging from the
// ledger lines they wrote (link perp:liquidation:<command>).
// Must not: change anything (no command is sent from here: staff cannot set a price or close a position).

import type { LiquidationRecord, OpenInterestView, StaffPerpetualsDesk } from '@bourse/contract';
import type { Sql } from '@bourse/db';
import { formatDecimal, notionalMinor } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';

const FUND = 'platform:insurance_fund';
const LIQUIDATION_LINK = 'perp:liquidation:';
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
    const liquidationLines = await this.#db.query<Line>(
      `SELECT * FROM ledger_transfers WHERE link LIKE $1 ORDER BY seq DESC, transfer_id DESC LIMIT $2`,
      [`${LIQUIDATION_LINK}%`, NEWEST * 4],
    );
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
      liquidations: liquidationsOf(liquidationLines, money),
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
 * One record per liquidation command, newest first: its lines carry link perp:liquidation:<command>, each ADL
 * step perp:liquidation:<command>:adl:<counterparty>. The customer is the owner whose margin went to the fund
 * (the `:margin` line) or, without one, the PnL owner of an ADL step other than its counterparty; the fund's
 * net is what it got less what it paid. A liquidation closed wholly in the book at its bankruptcy price
 * writes no line of its own (its trades' lines carry the trade's link) and is not listed.
 */
export function liquidationsOf(lines: readonly Line[], money: (minor: bigint) => string): LiquidationRecord[] {
  const byLink = new Map<string, Line[]>();
  for (const line of lines) {
    const link = line.link.replace(/:adl:[^:]+$/, '');
    const group = byLink.get(link);
    if (group === undefined) byLink.set(link, [line]);
    else group.push(line);
  }
  const records: LiquidationRecord[] = [];
  for (const [link, group] of byLink) {
    let fund = 0n;
    const adl = new Set<string>();
    let userId = '';
    for (const line of group) {
      if (line.credit_owner === FUND) fund += BigInt(line.amount);
      if (line.debit_owner === FUND) fund -= BigInt(line.amount);
      const step = line.link.slice(link.length).match(/^:adl:([^:]+)$/);
      if (step?.[1] !== undefined) adl.add(step[1]);
      if (line.transfer_id === `${link}:margin`) userId = line.debit_owner;
    }
    if (userId === '') {
      // No remainder went to the fund: the customer is the one whose PnL line is not an ADL step's counterparty.
      const pnl = group.find((line) => /:pnl:/.test(line.transfer_id) && !adl.has(pnlOwner(line.transfer_id)));
      userId = pnl === undefined ? '' : pnlOwner(pnl.transfer_id);
    }
    records.push({
      link,
      at: Math.min(...group.map((line) => Number(line.at))),
      userId,
      asset: group[0]?.asset ?? '',
      insuranceFund: money(fund),
      adlCounterparties: [...adl],
    });
  }
  // Lines came newest first: so do the records.
  return records;
}

function pnlOwner(transferId: string): string {
  const at = transferId.lastIndexOf(':pnl:');
  return transferId.slice(at + 5).split(':')[0] ?? '';
}
