// Turns the engine's events into read-model rows (transfers, orders, trades), inside the journal's
// transaction. Rows are keyed by the engine's own ids, so writing a batch twice changes nothing, and an
// order row only moves forward (last_seq), so an idempotent replay of an old answer never rewinds it.

import type { Sql } from '@bourse/db';
import type { ApplyResult, Command, EngineEvent } from '@bourse/engine';
import type { Applied } from './engine-host.ts';

const ownerOf = (accountKey: string) => accountKey.slice(0, accountKey.indexOf('/'));

export async function projectBatch(tx: Sql, batch: readonly Applied<Command, ApplyResult>[]): Promise<void> {
  for (const { seq, result } of batch) {
    if (!result.ok) continue;
    for (const event of result.events) await projectEvent(tx, seq, event);
  }
}

async function projectEvent(tx: Sql, seq: number, e: EngineEvent): Promise<void> {
  switch (e.type) {
    case 'transfer_posted':
      await tx.run(
        `INSERT INTO ledger_transfers (transfer_id, seq, at, debit, credit, debit_owner, credit_owner, asset, amount, cause, link)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (transfer_id) DO NOTHING`,
        [
          e.transferId,
          seq,
          e.timeMs,
          e.debit,
          e.credit,
          ownerOf(e.debit),
          ownerOf(e.credit),
          e.asset,
          e.amount.toString(),
          e.cause,
          e.link,
        ],
      );
      return;
    case 'order_placed':
      await tx.run(
        `INSERT INTO orders (id, command_id, user_id, instrument_id, side, order_type, time_in_force, price_ticks, qty_lots,
           status, trigger_spec, hold_asset, hold_amount, created_at, updated_at, last_seq, queued)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15, $16) ON CONFLICT (id) DO NOTHING`,
        [
          e.orderId,
          e.commandId,
          e.userId,
          e.instrumentId,
          e.side,
          e.orderType,
          e.timeInForce,
          e.priceTicks,
          e.qtyLots,
          e.status,
          e.trigger ? JSON.stringify(e.trigger) : null,
          e.holdAsset,
          e.holdAmount.toString(),
          e.timeMs,
          seq,
          e.queued ? 1 : 0,
        ],
      );
      return;
    case 'order_updated':
      await tx.run(
        `UPDATE orders SET status = $2, price_ticks = $3, qty_lots = $4, filled_lots = $5, reason = $6, updated_at = $7, last_seq = $8
         WHERE id = $1 AND last_seq <= $8`,
        [e.orderId, e.status, e.priceTicks, e.qtyLots, e.filledLots, e.reason, e.timeMs, seq],
      );
      return;
    case 'trade':
      await tx.run(
        `INSERT INTO trades (id, seq, instrument_id, price_ticks, qty_lots, taker_side, maker_order_id, taker_order_id,
           maker_user_id, taker_user_id, notional, maker_fee, taker_fee, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING`,
        [
          e.tradeId,
          seq,
          e.instrumentId,
          e.priceTicks,
          e.qtyLots,
          e.takerSide,
          e.makerOrderId,
          e.takerOrderId,
          e.makerUserId,
          e.takerUserId,
          e.notional.toString(),
          e.makerFee.toString(),
          e.takerFee.toString(),
          e.timeMs,
        ],
      );
      return;
    default:
      // Holds, prices and instrument registrations are live state, read from the engine itself.
      return;
  }
}
