// Owns the commands that define markets: registering an instrument, its reference price and band,
// the outside mark price that fires `by: 'mark'` triggers, and the fees charged to orders placed from now on.
// Must hold: a band, when set, satisfies 1 <= lo <= hi <= the book's highest tick.
// Must not: move money.

import { type CommandBase, defineFamily } from './command-family.ts';
import { type ApplyResult, type EngineState, type InstrumentState, WRITTEN } from './engine-state.ts';
import type { EngineEvent } from './events.ts';
import { type InstrumentSpec, isIntIn, isValidFeeBps, parseInstrument } from './instrument.ts';
import { OrderBook } from './order-book.ts';
import { fireTriggers } from './trading.ts';
import { emptyTriggerLists } from './triggers.ts';

export type RegisterInstrument = CommandBase & { type: 'register_instrument'; instrument: InstrumentSpec };

/** Sets the reference price and, optionally, the band outside which limit prices are refused. */
export type SetReferencePrice = CommandBase & {
  type: 'set_reference_price';
  instrumentId: string;
  priceTicks: number;
  bandLoTicks?: number;
  bandHiTicks?: number;
};

/** An outside mark/last price (index, other venue) that fires `by: 'mark'` triggers. */
export type SetMarkPrice = CommandBase & { type: 'set_mark_price'; instrumentId: string; priceTicks: number };

/**
 * Changes an instrument's maker and taker fees (whole bps, as register_instrument allows) for orders
 * placed from now on. An order pays the fees in force when it was placed (what the customer was shown):
 * live orders keep theirs, and so do their holds.
 */
export type SetInstrumentFees = CommandBase & {
  type: 'set_instrument_fees';
  instrumentId: string;
  makerFeeBps: number;
  takerFeeBps: number;
};

export function addInstrument(state: EngineState, spec: InstrumentSpec): InstrumentState | undefined {
  const def = parseInstrument(spec, state.assets);
  if (def === undefined) return undefined;
  const instrument: InstrumentState = {
    index: state.instrumentList.length,
    def,
    book: new OrderBook(spec.maxPriceTicks),
    recordBySlot: [],
    feeAccount: state.ledger.platform('fees', def.quote),
    referenceTicks: null,
    bandLoTicks: null,
    bandHiTicks: null,
    markTicks: null,
    lastTradeTicks: null,
    triggers: emptyTriggerLists(),
    triggerCount: 0,
    halted: false,
    queued: [],
    settlementLocks: [],
    settledHead: 0,
  };
  state.instruments.set(def.id, instrument);
  state.instrumentList.push(instrument);
  return instrument;
}

export function registerInstrument(state: EngineState, command: RegisterInstrument): ApplyResult {
  const spec = command.instrument;
  if (typeof spec !== 'object' || spec === null) return { ok: false, code: 'invalid_instrument' };
  if (state.instruments.has(spec.id)) return { ok: false, code: 'instrument_exists' };
  const copy: InstrumentSpec = { ...spec };
  if (parseInstrument(copy, state.assets) === undefined) return { ok: false, code: 'invalid_instrument' };
  addInstrument(state, copy);
  return { ok: true, events: [{ type: 'instrument_registered', instrument: copy, timeMs: command.timeMs }] };
}

export function setReferencePrice(state: EngineState, command: SetReferencePrice): ApplyResult {
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return { ok: false, code: 'unknown_instrument' };
  const max = instrument.book.maxTick;
  if (!isIntIn(command.priceTicks, 1, max)) return { ok: false, code: 'invalid_price' };
  const { bandLoTicks: lo, bandHiTicks: hi } = command;
  const hasBand = lo !== undefined || hi !== undefined;
  if (hasBand && !(isIntIn(lo, 1, max) && isIntIn(hi, lo, max))) return { ok: false, code: 'invalid_price' };
  instrument.referenceTicks = command.priceTicks;
  instrument.bandLoTicks = hasBand ? (lo as number) : null;
  instrument.bandHiTicks = hasBand ? (hi as number) : null;
  const event: EngineEvent = {
    type: 'reference_price_set',
    instrumentId: instrument.def.id,
    priceTicks: command.priceTicks,
    bandLoTicks: instrument.bandLoTicks,
    bandHiTicks: instrument.bandHiTicks,
    timeMs: command.timeMs,
  };
  return { ok: true, events: [event] };
}

export function setMarkPrice(state: EngineState, command: SetMarkPrice): ApplyResult {
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return { ok: false, code: 'unknown_instrument' };
  if (!isIntIn(command.priceTicks, 1, instrument.book.maxTick)) return { ok: false, code: 'invalid_price' };
  instrument.markTicks = command.priceTicks;
  state.log.push({
    type: 'mark_price_set',
    instrumentId: instrument.def.id,
    priceTicks: command.priceTicks,
    bandLoTicks: null,
    bandHiTicks: null,
    timeMs: command.timeMs,
  });
  fireTriggers(state, instrument, command.timeMs);
  return WRITTEN;
}

/**
 * New maker/taker fees for orders placed from now on: the instrument gets a new definition (a new spec
 * object, so the registering command and its event keep the fees they had). Live orders keep the fees
 * they captured when placed, and their holds with them.
 */
export function setInstrumentFees(state: EngineState, command: SetInstrumentFees): ApplyResult {
  const instrument = state.instruments.get(command.instrumentId);
  if (instrument === undefined) return { ok: false, code: 'unknown_instrument' };
  const { makerFeeBps, takerFeeBps } = command;
  if (!isValidFeeBps(makerFeeBps) || !isValidFeeBps(takerFeeBps)) return { ok: false, code: 'invalid_instrument' };
  const def = parseInstrument({ ...instrument.def.spec, makerFeeBps, takerFeeBps }, state.assets);
  if (def === undefined) return { ok: false, code: 'invalid_instrument' };
  instrument.def = def;
  const event: EngineEvent = {
    type: 'instrument_fees_set',
    instrumentId: def.id,
    makerFeeBps,
    takerFeeBps,
    timeMs: command.timeMs,
  };
  return { ok: true, events: [event] };
}

/** The family (families.ts); its keys are coded in commands.ts (instrument, instrumentId, priceTicks…). */
export const REFERENCE_DATA_FAMILY = defineFamily<
  RegisterInstrument | SetReferencePrice | SetMarkPrice | SetInstrumentFees
>({
  name: 'reference-data',
  commands: {
    register_instrument: { code: 'I', keys: ['instrument'], apply: registerInstrument },
    set_reference_price: {
      code: 'R',
      keys: ['instrumentId', 'priceTicks', 'bandLoTicks', 'bandHiTicks'],
      apply: setReferencePrice,
    },
    set_mark_price: { code: 'M', keys: ['instrumentId', 'priceTicks'], apply: setMarkPrice },
    set_instrument_fees: {
      code: 'F',
      keys: ['instrumentId', 'makerFeeBps', 'takerFeeBps'],
      apply: setInstrumentFees,
    },
  },
  keys: {},
  rejections: [],
});
