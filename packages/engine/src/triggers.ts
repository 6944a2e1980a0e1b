// Owns the waiting stop and take-profit orders of one instrument, sorted so the next to fire is first.
// Must hold: each list stays sorted by (trigger price, order id); an order sits in at most one list.
// Must not: execute orders; it only says which one fires next.

import type { TriggerSpec } from './commands.ts';
import type { InstrumentState, OrderRecord, TriggerLists } from './engine-state.ts';
import type { Side } from './order-book.ts';

export function emptyTriggerLists(): TriggerLists {
  return { risesLast: [], fallsLast: [], risesMark: [], fallsMark: [] };
}

/** A buy stop and a sell take-profit fire on a rise; a sell stop and a buy take-profit on a fall. */
export function firesOnRise(side: Side, trigger: TriggerSpec): boolean {
  return (trigger.kind === 'stop') === (side === 'buy');
}

/** Would the trigger fire at once at `price`? (Such an order is refused: it is not a trigger.) */
export function wouldFireAt(side: Side, trigger: TriggerSpec, price: number | null): boolean {
  if (price === null) return false;
  return firesOnRise(side, trigger) ? price >= trigger.priceTicks : price <= trigger.priceTicks;
}

function listFor(lists: TriggerLists, order: OrderRecord): { list: OrderRecord[]; rises: boolean } {
  const trigger = order.trigger as TriggerSpec;
  const rises = firesOnRise(order.side, trigger);
  if (trigger.by === 'last') return { list: rises ? lists.risesLast : lists.fallsLast, rises };
  return { list: rises ? lists.risesMark : lists.fallsMark, rises };
}

export function addTrigger(instrument: InstrumentState, order: OrderRecord): void {
  const { list, rises } = listFor(instrument.triggers, order);
  const price = (order.trigger as TriggerSpec).priceTicks;
  let at = list.length;
  while (at > 0) {
    const before = list[at - 1] as OrderRecord;
    const beforePrice = (before.trigger as TriggerSpec).priceTicks;
    if (rises ? beforePrice <= price : beforePrice >= price) break;
    at -= 1;
  }
  list.splice(at, 0, order);
  instrument.triggerCount += 1;
}

export function removeTrigger(instrument: InstrumentState, order: OrderRecord): boolean {
  const { list } = listFor(instrument.triggers, order);
  const at = list.indexOf(order);
  if (at < 0) return false;
  list.splice(at, 1);
  instrument.triggerCount -= 1;
  return true;
}

/** Takes the next order whose trigger the current last/mark price has reached, or undefined. */
export function takeFiredTrigger(instrument: InstrumentState): OrderRecord | undefined {
  const { triggers, lastTradeTicks: last, markTicks: mark } = instrument;
  const order =
    takeIf(triggers.risesLast, last, true) ??
    takeIf(triggers.fallsLast, last, false) ??
    takeIf(triggers.risesMark, mark, true) ??
    takeIf(triggers.fallsMark, mark, false);
  if (order !== undefined) instrument.triggerCount -= 1;
  return order;
}

function takeIf(list: OrderRecord[], price: number | null, rises: boolean): OrderRecord | undefined {
  const first = list[0];
  if (first === undefined || price === null) return undefined;
  const at = (first.trigger as TriggerSpec).priceTicks;
  if (rises ? price >= at : price <= at) return list.shift();
  return undefined;
}
