// The customers' liquidation, ADL and funding records (perp_records) and the funding instants applied
// (perp_funding_slots), written from the engine's results in the journal's own transaction
// (TradingEngine's alsoProject): a record exists exactly when its command is journaled, so a crash between
// the commit and a later write can no longer lose one (decision 0029, replacing 0028's "written after").
// Must hold: each row follows from one command's events alone (a replayed batch writes the same keys, which
// are ignored the second time); nothing here reads live state.

import type { Sql } from '@bourse/db';
import type { ApplyResult, Command, EngineEvent } from '@bourse/engine';
import type { Applied } from '../../engine-host/engine-host.ts';
import * as repo from './repo.ts';

const sideOf = (lots: number): 'long' | 'short' => (lots > 0 ? 'long' : 'short');

/** The funding instant a desk's apply_funding id names (`funding:<contract>:<slot ms>`), or undefined. */
export function fundingSlotOfCommand(commandId: string): number | undefined {
  const match = /^funding:.+:(\d+)$/.exec(commandId);
  return match ? Number(match[1]) : undefined;
}

/** The records of one liquidate command: the customer's liquidation, and each ADL counterparty's. */
export function liquidationRecords(commandId: string, events: readonly EngineEvent[]): repo.PerpRecord[] {
  const liquidated = events.find((e) => e.type === 'position_liquidated');
  if (liquidated?.type !== 'position_liquidated') return [];
  const records: repo.PerpRecord[] = [
    {
      key: `${commandId}:liquidation`,
      userId: liquidated.userId,
      instrumentId: liquidated.instrumentId,
      kind: 'liquidation',
      side: sideOf(liquidated.sizeLots),
      sizeLots: Math.abs(liquidated.sizeLots),
      priceTicks: liquidated.markTicks,
      bankruptcyTicks: liquidated.bankruptcyTicks,
      ratePpm: 0,
      // The customer loses the position's margin, and no more.
      amount: -liquidated.marginLost,
      insuranceFund: liquidated.insuranceFund,
      at: liquidated.timeMs,
    },
  ];
  for (const e of events) {
    if (e.type !== 'auto_deleveraged') continue;
    records.push({
      key: `${commandId}:adl:${e.userId}`,
      userId: e.userId,
      instrumentId: e.instrumentId,
      kind: 'adl',
      side: sideOf(e.sizeLots),
      sizeLots: e.lots,
      priceTicks: liquidated.markTicks,
      bankruptcyTicks: e.priceTicks,
      ratePpm: 0,
      amount: e.pnl,
      insuranceFund: 0n,
      at: e.timeMs,
    });
  }
  return records;
}

/** The records of one apply_funding command: one per holder who paid or received, with its size then. */
export function fundingRecords(commandId: string, events: readonly EngineEvent[]): repo.PerpRecord[] {
  const applied = events.find((e) => e.type === 'funding_applied');
  if (applied?.type !== 'funding_applied') return [];
  // Funding changes margins, not sizes: each holder's position_changed carries the size it was paid on.
  const sizes = new Map<string, number>();
  for (const e of events) if (e.type === 'position_changed') sizes.set(e.userId, e.sizeLots);
  const prefix = `perp:funding:${commandId}:`;
  const records: repo.PerpRecord[] = [];
  for (const e of events) {
    if (e.type !== 'transfer_posted' || e.cause !== 'funding' || !e.transferId.startsWith(prefix)) continue;
    const userId = e.transferId.slice(prefix.length);
    const size = sizes.get(userId) ?? 0;
    const received = e.debit.startsWith('platform:');
    records.push({
      key: `${commandId}:${userId}`,
      userId,
      instrumentId: applied.instrumentId,
      kind: 'funding',
      side: sideOf(size),
      sizeLots: Math.abs(size),
      priceTicks: applied.markTicks,
      bankruptcyTicks: 0,
      ratePpm: applied.ratePpm,
      amount: received ? e.amount : -e.amount,
      insuranceFund: 0n,
      at: e.timeMs,
    });
  }
  return records;
}

/** The batch's records and funding instants (liquidate and apply_funding are rare: their events are made). */
export async function projectPerpRecords(tx: Sql, batch: readonly Applied<Command, ApplyResult>[]): Promise<void> {
  const records: repo.PerpRecord[] = [];
  for (const { command, result, repeat } of batch) {
    if (repeat || !result.ok) continue;
    if (command.type === 'liquidate') records.push(...liquidationRecords(command.id, result.events));
    else if (command.type === 'apply_funding') {
      records.push(...fundingRecords(command.id, result.events));
      const slot = fundingSlotOfCommand(command.id);
      const applied = result.events.find((e) => e.type === 'funding_applied');
      if (slot !== undefined && applied?.type === 'funding_applied') {
        await repo.saveFundingSlot(tx, {
          instrumentId: applied.instrumentId,
          slotAt: slot,
          ratePpm: applied.ratePpm,
          markTicks: applied.markTicks,
          paid: applied.paid,
        });
      }
    }
  }
  if (records.length > 0) await repo.insertRecords(tx, records);
}
