// Owns the small helpers scenario tables use: apply-and-expect-ok, and a balance sheet printed as
// decimal strings ("alice/spot/USDT": "1991.000000 held 0.000000") so tables read like statements.
// Must hold: the sheet lists every account with a non-zero balance or hold, in opening order.
// Must not: hide a rejection: applyOk throws with the code.

import type { ApplyResult, Command, Engine, EngineEvent, Trade } from '@bourse/engine';
import { formatDecimal } from '@bourse/money';

export function applyOk(engine: Engine, command: Command): EngineEvent[] {
  const result: ApplyResult = engine.apply(command);
  if (!result.ok) throw new Error(`${command.type} ${command.id} was rejected: ${result.code}`);
  return result.events;
}

export function applyAll(engine: Engine, commands: Command[]): EngineEvent[] {
  return commands.flatMap((command) => applyOk(engine, command));
}

export function rejectionOf(engine: Engine, command: Command): string | undefined {
  const result = engine.apply(command);
  return result.ok ? undefined : result.code;
}

/** Every account with money in it, as "balance" or "balance held H". */
export function balanceSheet(engine: Engine): Record<string, string> {
  const sheet: Record<string, string> = {};
  for (const account of engine.accounts()) {
    if (account.balance === 0n && account.held === 0n) continue;
    const balance = formatDecimal(account.balance, account.asset.scale);
    sheet[account.key] =
      account.held === 0n ? balance : `${balance} held ${formatDecimal(account.held, account.asset.scale)}`;
  }
  return sheet;
}

/** Trades as [price ticks, lots, maker order, taker order]. */
export function tradesOf(events: EngineEvent[]): [number, number, number, number][] {
  return events
    .filter((e): e is Trade => e.type === 'trade')
    .map((t) => [t.priceTicks, t.qtyLots, t.makerOrderId, t.takerOrderId]);
}

/** The order id an order_placed event in `events` assigned. */
export function placedId(events: EngineEvent[]): number {
  const placed = events.find((e) => e.type === 'order_placed');
  if (placed?.type !== 'order_placed') throw new Error('no order_placed event');
  return placed.orderId;
}

export function statusesOf(events: EngineEvent[]): [number, string, string][] {
  return events.flatMap((e) =>
    e.type === 'order_updated' ? [[e.orderId, e.status, e.reason] as [number, string, string]] : [],
  );
}
