// Owns the trading commands' shapes, the Command union (those plus every family's, families.ts) and the
// journal codec of all of them. Commands are plain JSON: integer ticks and lots as numbers, money as
// decimal strings, time as epoch milliseconds from the sequencer.
// Must hold: decodeCommand(encodeCommand(c)) is JSON.parse(JSON.stringify(c)), keys in the same order.
// Must not: read a clock or make up ids.

import { BOOL, CONST, JSONV, type KeyCode, type Kind, NUM, STR } from './command-family.ts';
import { FAMILIES, type FamilyCommand } from './families.ts';
import type { Side, StpMode } from './order-book.ts';

type CommandBase = {
  /**
   * The idempotency key: a repeated id with the same body answers the first result again. A deposit's,
   * a wallet transfer's, a funds hold's and a posting's id is also its transfer or hold id: it may not
   * begin `order#`, `trade:` or `settle:`, the ids the engine gives its own (invalid_command).
   */
  id: string;
  /** The sequencer's clock, in epoch milliseconds. */
  timeMs: number;
};

/**
 * Halts or resumes continuous trading (the exchange's session closed or open). While halted nothing
 * trades: orders are accepted and their funds held, but they wait in arrival order (after-market
 * orders) and enter the book, in that order, when trading resumes; post-only orders, which can never
 * trade on arrival, rest in the book at once (a market maker's opening quotes); fill-or-kill orders are
 * refused. Triggers wait too.
 */
export type SetTradingStatus = CommandBase & { type: 'set_trading_status'; instrumentId: string; halted: boolean };

export type TimeInForce = 'gtc' | 'ioc' | 'fok';

/** Stop fires when the price moves against the position's direction; take_profit when it moves for it. */
export type TriggerSpec = { kind: 'stop' | 'take_profit'; priceTicks: number; by: 'last' | 'mark' };

export type PlaceOrder = CommandBase & {
  type: 'place_order';
  userId: string;
  instrumentId: string;
  side: Side;
  orderType: 'limit' | 'market';
  /** Limit price; absent for market orders. */
  priceTicks?: number;
  qtyLots: number;
  /** Limit orders: gtc (default), ioc or fok. Market orders are always ioc. */
  timeInForce?: TimeInForce;
  postOnly?: boolean;
  trigger?: TriggerSpec;
  stp?: StpMode;
  /**
   * Perpetuals only: the order may only reduce the position it is placed against (TP/SL, closes). It
   * never rests (market, IOC or FOK); when it executes it is cut to what the position still has, or
   * cancelled (`reduce_only`) when nothing is left to reduce. It holds only its fee.
   */
  reduceOnly?: boolean;
};

export type CancelOrder = CommandBase & { type: 'cancel_order'; userId: string; orderId: number };

/** New limit price and/or new total quantity (including what has filled). */
export type AmendOrder = CommandBase & {
  type: 'amend_order';
  userId: string;
  orderId: number;
  priceTicks?: number;
  qtyLots?: number;
};

/** The commands engine.ts dispatches itself (the hot path's among them); the others come by family. */
type CoreCommand = SetTradingStatus | PlaceOrder | CancelOrder | AmendOrder;

/** Every command: the core ones and every family's (families.ts). */
export type Command = CoreCommand | FamilyCommand;

export type CommandType = Command['type'];

const CORE_COMMAND_TYPES: readonly CoreCommand['type'][] = [
  'set_trading_status',
  'place_order',
  'cancel_order',
  'amend_order',
];

export const COMMAND_TYPES: readonly CommandType[] = [
  ...FAMILIES.flatMap((family) => Object.keys(family.commands) as FamilyCommand['type'][]),
  ...CORE_COMMAND_TYPES,
];

// The journal's encoding of a command (engine_journal.command, a TEXT column): one encoding (issue 22),
// the compact one, with JSON as its escape, told apart by the first character:
// - JSON (`{`…): written for a command the compact format does not cover (an unknown key, a missing id
//   or timeMs, an object that is not a plain one). Read with JSON.parse.
// - Compact (`~`, which JSON text never starts with): `~`, the command type's code, then one code per key
//   in the command's own key order, then each value that is not in those codes, each after a tab:
//     ~Pityuns0o0pq<TAB>b5<TAB>1700000000005<TAB>user5624<TAB>BTC-USDT<TAB>6000046<TAB>2
//   (place_order; id, timeMs, type, userId, instrumentId, side = buy, orderType = limit, priceTicks,
//   qtyLots). A key of a closed set of values (side, orderType, timeInForce, stp, the wallets, cause) has
//   its value's code right after its own; `type` has none (it is the type's code). Otherwise: a string is
//   written as it is unless it holds a control character (tabs among them) or a surrogate; a finite
//   number as String(n); a boolean as 1 or 0; `trigger` and `instrument` as JSON; and any other value (a
//   string price, a NaN, a side outside the set, such a string) as JSON, its key's code after a `*`.
// decodeCommand(encodeCommand(c)) is JSON.parse(JSON.stringify(c)) in both formats: the same keys in the
// same order with the same values, so a replayed command is the live one (the idempotency window keeps
// commands as sent, and the snapshot and the state hash follow their key order). Decoding the compact
// format is ~2.5× faster than JSON.parse, in ~40% of the characters (bench/HISTORY.md, replay).
// The codes below are the format: never reuse or change one; a new key, type or value gets a new code.
//
// A journal line carries one more character in front of either, its mark (encodeJournalLine): `+` when
// the engine did not know the command's id when it applied it (a new command, applied or refused), `=`
// when it answered it from its idempotency window (a repeat, which changed nothing). Neither starts JSON
// or a compact line. A start-up replay then needs no window of ids to tell repeats
// (docs/decisions/0010-journal-repeat-marks.md); Engine.replay refuses a line without a mark.

/** A journal line's mark (see journalMark). */
export const JOURNAL_UNMARKED = 0;
export const JOURNAL_NEW = 1;
export const JOURNAL_REPEAT = 2;
export type JournalMark = typeof JOURNAL_UNMARKED | typeof JOURNAL_NEW | typeof JOURNAL_REPEAT;
const NEW_CODE = 0x2b; // +
const REPEAT_CODE = 0x3d; // =

/** The journal line of a command the engine applied: its mark, then encodeCommand(command). */
export function encodeJournalLine(command: Command, repeat: boolean): string {
  return (repeat ? '=' : '+') + encodeCommand(command);
}

/** What a journal line's mark says: a new command, a repeat, or nothing (no journal line: replay refuses it). */
export function journalMark(text: string): JournalMark {
  const first = text.charCodeAt(0);
  return first === NEW_CODE ? JOURNAL_NEW : first === REPEAT_CODE ? JOURNAL_REPEAT : JOURNAL_UNMARKED;
}

/** The first character of a compact journal line. */
const COMPACT = '~';
const COMPACT_CODE = 0x7e;

/** Every key of every core command type (a family codes the keys new with it). */
type CommandKey = CoreCommand extends infer C ? (C extends CoreCommand ? keyof C : never) : never;

const WALLET_CODES = ['spot', 'stock', 'contract', 'margin', 'fund', 'robot', 'loan', 'platform'];

/**
 * Each key's code and how its value is written (for a closed set: its values, coded 0, 1, 2…): every
 * core command's key, and the keys families share (asset, wallet, amount…). A key new with a family is
 * coded in its module.
 */
const KEY_CODES: { readonly [K in CommandKey]: KeyCode } & { readonly [key: string]: KeyCode } = {
  id: ['i', STR],
  timeMs: ['t', NUM],
  type: ['y', CONST],
  userId: ['u', STR],
  instrumentId: ['n', STR],
  side: ['s', CONST, ['buy', 'sell']],
  orderType: ['o', CONST, ['limit', 'market']],
  priceTicks: ['p', NUM],
  qtyLots: ['q', NUM],
  timeInForce: ['f', CONST, ['gtc', 'ioc', 'fok']],
  postOnly: ['P', BOOL],
  trigger: ['g', JSONV],
  stp: ['S', CONST, ['cancel_resting', 'cancel_taker', 'cancel_both']],
  reduceOnly: ['R', BOOL],
  orderId: ['O', NUM],
  wallet: ['w', CONST, WALLET_CODES],
  asset: ['a', STR],
  amount: ['m', STR],
  from: ['F', STR],
  cause: [
    'c',
    CONST,
    [
      'trade',
      'fee',
      'deposit',
      'withdrawal',
      'paper_grant',
      'wallet_transfer',
      'funding',
      'interest',
      'allotment',
      'refund',
      'liquidation',
      'adjustment',
      'convert',
      'option',
      // Appended (decision 0039): a cause is coded by its position, so new ones go at the end.
      'loan',
      'loan_repayment',
    ],
  ],
  link: ['l', STR],
  fromWallet: ['W', CONST, WALLET_CODES],
  toWallet: ['X', CONST, WALLET_CODES],
  holdId: ['h', STR],
  to: ['T', STR],
  upToTradeId: ['U', NUM],
  bandLoTicks: ['b', NUM],
  bandHiTicks: ['B', NUM],
  halted: ['H', BOOL],
  makerFeeBps: ['k', NUM],
  takerFeeBps: ['K', NUM],
  instrument: ['I', JSONV],
};

/** Each core command type's code (the character after `~`); a family's are in its module. */
const TYPE_CODES: { readonly [T in CoreCommand['type']]: string } = {
  set_trading_status: 'T',
  place_order: 'P',
  cancel_order: 'C',
  amend_order: 'A',
};

/** The codes of a closed set's values, by position. */
const VALUE_CODES = '0123456789abcdefghijklmnopqrstuvwxyz';

type KeyEntry = {
  readonly name: string;
  readonly code: string;
  readonly kind: Kind;
  /** A closed set's key: each value's code (key code + value code), and each code's value. */
  readonly codes: ReadonlyMap<string, string> | undefined;
  readonly values: ReadonlyMap<string, string> | undefined;
};
const KEYS_BY_NAME = new Map<string, KeyEntry>();
const KEYS_BY_CODE = new Map<string, KeyEntry>();
const TYPES_BY_NAME = new Map<string, string>();
const TYPES_BY_CODE = new Map<string, CommandType>();
/** Each command type's own keys (not id, timeMs or type), for a family's: what its module declares. */
export const FAMILY_COMMAND_KEYS = new Map<string, readonly string[]>();
const allKeys: [string, KeyCode][] = [
  ...Object.entries(KEY_CODES),
  ...FAMILIES.flatMap((family) => Object.entries(family.keys)),
];
for (const [name, [code, kind, values]] of allKeys) {
  // A family whose code or key name is taken would misread journal lines: refuse to load.
  if (KEYS_BY_NAME.has(name) || KEYS_BY_CODE.has(code) || code === '*' || code.length !== 1)
    throw new Error(`journal key ${name} (${code}) is coded twice or badly`);
  const entry: KeyEntry = {
    name,
    code,
    kind,
    codes: values && new Map(values.map((value, i) => [value, code + VALUE_CODES.charAt(i)])),
    values: values && new Map(values.map((value, i) => [VALUE_CODES.charAt(i), value])),
  };
  KEYS_BY_NAME.set(name, entry);
  KEYS_BY_CODE.set(code, entry);
}
/** A key's journal code and kind, wherever it is declared (for tests that make commands of a family). */
export function journalKeyCode(name: string): KeyCode | undefined {
  const entry = KEYS_BY_NAME.get(name);
  return entry && [entry.code, entry.kind, entry.values && [...entry.values.values()]];
}

const allTypes: [string, string][] = [
  ...Object.entries(TYPE_CODES),
  ...FAMILIES.flatMap((family) =>
    Object.entries(family.commands).map(([type, spec]) => {
      for (const key of spec.keys)
        if (!KEYS_BY_NAME.has(key)) throw new Error(`${type}: its key ${key} has no journal code`);
      FAMILY_COMMAND_KEYS.set(type, spec.keys);
      return [type, spec.code] as [string, string];
    }),
  ),
];
for (const [type, code] of allTypes) {
  if (TYPES_BY_NAME.has(type) || TYPES_BY_CODE.has(code) || code.length !== 1)
    throw new Error(`command type ${type} (${code}) is coded twice or badly`);
  TYPES_BY_NAME.set(type, code);
  TYPES_BY_CODE.set(code, type as CommandType);
}

/** The journal line of a command (see above): compact when it can be, JSON otherwise. */
export function encodeCommand(command: Command): string {
  return encodeCompact(command) ?? JSON.stringify(command);
}

/** The compact line, or undefined when the compact format does not cover the command. */
function encodeCompact(command: Command): string | undefined {
  if (typeof command !== 'object' || command === null) return undefined;
  const proto: unknown = Object.getPrototypeOf(command);
  if (proto !== Object.prototype && proto !== null) return undefined;
  // What decodeCommand() asks of a JSON line; a command without it stays JSON, and is refused as before.
  if (typeof command.id !== 'string' || !Number.isFinite(command.timeMs)) return undefined;
  const typeCode = TYPES_BY_NAME.get(command.type);
  if (typeCode === undefined) return undefined;
  const record = command as Record<string, unknown>;
  let codes = COMPACT + typeCode;
  let values = '';
  // A plain object's own keys in JSON.stringify's order (nothing is inherited: its prototype is Object's
  // or none); what JSON leaves out (undefined, functions, symbols) is left out.
  for (const name in record) {
    const value = record[name];
    const type = typeof value;
    if (type === 'undefined' || type === 'function' || type === 'symbol') continue;
    const key = KEYS_BY_NAME.get(name);
    if (key === undefined || !Object.hasOwn(record, name)) return undefined;
    let text: string | undefined;
    switch (key.kind) {
      case CONST: {
        if (key.codes === undefined) {
          codes += key.code; // type
          continue;
        }
        const code = type === 'string' ? key.codes.get(value as string) : undefined;
        if (code !== undefined) {
          codes += code;
          continue;
        }
        break;
      }
      case STR:
        if (type === 'string' && isPlain(value as string)) text = value as string;
        break;
      case NUM:
        if (type === 'number' && Number.isFinite(value)) text = String(value);
        break;
      case BOOL:
        if (type === 'boolean') text = value ? '1' : '0';
        break;
    }
    if (text === undefined) {
      // JSON text holds no tab; a bigint throws here as it always did in JSON.stringify(command).
      text = JSON.stringify(value);
      codes += key.kind === JSONV ? key.code : `*${key.code}`;
    } else {
      codes += key.code;
    }
    values = `${values}\t${text}`;
  }
  return codes + values;
}

/** No control character (a tab separates values) and no surrogate (a lone one would not survive UTF-8). */
function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** How a compact line's keys are read, cached by the line's codes. */
type Shape = {
  readonly names: readonly string[];
  readonly kinds: readonly Kind[];
  /** The value of each CONST key. */
  readonly consts: readonly unknown[];
  /** Makes the command from its values in key order (see builderOf). */
  readonly build: (values: readonly unknown[]) => Record<string, unknown>;
};
const shapes = new Map<string, Shape>();
const SHAPES_MAX = 4_096;

function parseShape(codes: string): Shape {
  const bad = () => new Error(`bad key codes in journal line: ${codes.slice(0, 200)}`);
  const type = TYPES_BY_CODE.get(codes.charAt(0));
  if (type === undefined) throw bad();
  const names: string[] = [];
  const kinds: Kind[] = [];
  const consts: unknown[] = [];
  for (let i = 1; i < codes.length; i++) {
    const asJson = codes.charAt(i) === '*';
    if (asJson) i++;
    const key = KEYS_BY_CODE.get(codes.charAt(i));
    if (key === undefined || names.includes(key.name)) throw bad();
    const isType = key.kind === CONST && key.values === undefined;
    let kind = key.kind;
    let value: unknown;
    if (asJson) {
      if (isType) throw bad(); // the type is never written as a value
      kind = JSONV;
    } else if (isType) {
      value = type;
    } else if (key.values !== undefined) {
      value = key.values.get(codes.charAt(++i));
      if (value === undefined) throw bad();
    }
    names.push(key.name);
    kinds.push(kind);
    consts.push(value);
  }
  if (!names.includes('type')) throw bad();
  return { names, kinds, consts, build: builderOf(names) };
}

/**
 * A function making a command of these keys, in this order, from its values: one object literal, so
 * every command of a shape is born with its final hidden class, instead of growing one key at a time
 * through stores by a variable key (decoding took ~20% less time). The names come from KEYS, never
 * from the line, and none is __proto__ (which a literal would take as the prototype).
 */
function builderOf(names: readonly string[]): Shape['build'] {
  if (names.includes('__proto__')) throw new Error('a command key named __proto__');
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as Shape['build'];
}

/** The values of the line being decoded, reused (decoding never nests); never resized. */
const lineValues: unknown[] = new Array(KEYS_BY_CODE.size).fill(undefined);

/** The number written at text[from, to) (String(n) of a finite number). */
function numberAt(text: string, from: number, to: number): number {
  const value = numberIn(text, from, to);
  if (Number.isNaN(value)) throw new Error(`bad number in journal line: ${text.slice(0, 200)}`);
  return value;
}

/** numberAt's number, or NaN where numberAt throws. */
function numberIn(text: string, from: number, to: number): number {
  // Up to 15 digits, no sign: read in place (exact: below 10^15 < 2^53). Anything else: Number().
  if (to - from <= 15 && to > from) {
    let n = 0;
    let i = from;
    for (; i < to; i++) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    if (i === to) return n;
  }
  return to === from ? Number.NaN : Number(text.slice(from, to));
}

/** The compact line that starts at text[from] (after a mark, if any). */
function decodeCompact(text: string, from: number): Command {
  let end = text.indexOf('\t', from);
  if (end === -1) end = text.length;
  const codes = text.slice(from + 1, end);
  let shape = shapes.get(codes);
  if (shape === undefined) {
    shape = parseShape(codes);
    if (shapes.size >= SHAPES_MAX) shapes.clear();
    shapes.set(codes, shape);
  }
  const { names, kinds, consts } = shape;
  const values = lineValues;
  let at = end + 1;
  for (let i = 0; i < names.length; i++) {
    const kind = kinds[i];
    if (kind === CONST) {
      values[i] = consts[i];
      continue;
    }
    if (at > text.length) throw new Error(`journal line has too few values: ${text.slice(0, 200)}`);
    let next = text.indexOf('\t', at);
    if (next === -1) next = text.length;
    if (kind === NUM) {
      values[i] = numberAt(text, at, next);
      at = next + 1;
      continue;
    }
    const raw = text.slice(at, next);
    let value: unknown;
    if (kind === STR) value = raw;
    else if (kind === BOOL) {
      if (raw !== '1' && raw !== '0') throw new Error(`bad boolean in journal line: ${text.slice(0, 200)}`);
      value = raw === '1';
    } else value = JSON.parse(raw);
    values[i] = value;
    at = next + 1;
  }
  const command = shape.build(values);
  if (at <= text.length) throw new Error(`journal line has too many values: ${text.slice(0, 200)}`);
  // What decodeCommand() asks of a JSON line (the encoder writes nothing else compactly).
  if (typeof command.id !== 'string' || typeof command.timeMs !== 'number')
    throw new Error(`not an engine command: ${text.slice(0, 200)}`);
  return command as Command;
}

/**
 * A page of journal lines read as far as can be without making a command: each compact line's shape
 * (its key codes), where each of its values lies and the numbers among them. A start-up replay reads
 * the journal on a worker thread (@bourse/db's scanPages); parsing there leaves the applying thread
 * only the strings to cut and the command to build (decodeParsedLine), about half of decoding.
 * Typed arrays, so the page goes to the other thread by transfer.
 */
export type ParsedJournalPage = {
  /** Per line: its key codes' index in `codes`, or -1 for a line decodeCommand reads (JSON, or unusual). */
  shapes: Int32Array;
  /** The distinct key codes of the page's compact lines. */
  codes: string[];
  /** Per line: the index of its first value in `bounds` / 2 and `numbers`; one more at the end. */
  firsts: Int32Array;
  /** Per value (CONST keys have none): its start and end in the line. */
  bounds: Int32Array;
  /** Per value: the number, for a NUM key (numberAt), else 0. */
  numbers: Float64Array;
};

/** Where parseJournalPage is, for a reader on another thread (@bourse/db's PageParser). */
export const JOURNAL_PAGE_PARSER = { module: import.meta.url, exportName: 'parseJournalPage' } as const;

/**
 * Parses a page of journal lines (see ParsedJournalPage). A line it cannot read in full is left to
 * decodeCommand (shape -1), which reads it or throws as it always has: the split changes no outcome.
 */
export function parseJournalPage(texts: readonly string[]): ParsedJournalPage {
  const n = texts.length;
  const shapeOf = new Int32Array(n);
  const firsts = new Int32Array(n + 1);
  const codes: string[] = [];
  const codeIndex = new Map<string, number>();
  let bounds = new Int32Array(Math.max(16, 2 * 8 * n));
  let numbers = new Float64Array(bounds.length / 2);
  let k = 0;
  for (let line = 0; line < n; line++) {
    firsts[line] = k;
    shapeOf[line] = -1;
    const text = texts[line] as string;
    const first = text.charCodeAt(0);
    const from = first === NEW_CODE || first === REPEAT_CODE ? 1 : 0;
    if (text.charCodeAt(from) !== COMPACT_CODE) continue;
    let end = text.indexOf('\t', from);
    if (end === -1) end = text.length;
    const lineCodes = text.slice(from + 1, end);
    let shape = shapes.get(lineCodes);
    if (shape === undefined) {
      try {
        shape = parseShape(lineCodes);
      } catch {
        continue;
      }
      if (shapes.size >= SHAPES_MAX) shapes.clear();
      shapes.set(lineCodes, shape);
    }
    const kinds = shape.kinds;
    if (2 * (k + kinds.length) > bounds.length) {
      const more = new Int32Array(2 * bounds.length + 2 * kinds.length);
      more.set(bounds);
      bounds = more;
      const moreNumbers = new Float64Array(more.length / 2);
      moreNumbers.set(numbers);
      numbers = moreNumbers;
    }
    let at = end + 1;
    let v = k;
    let ok = true;
    for (let i = 0; i < kinds.length && ok; i++) {
      const kind = kinds[i];
      if (kind === CONST) continue;
      if (at > text.length) ok = false;
      else {
        let next = text.indexOf('\t', at);
        if (next === -1) next = text.length;
        bounds[2 * v] = at;
        bounds[2 * v + 1] = next;
        if (kind === NUM) {
          const number = numberIn(text, at, next);
          if (Number.isNaN(number)) ok = false;
          numbers[v] = number;
        } else {
          numbers[v] = 0;
          if (kind === BOOL && !(next === at + 1 && (text.charCodeAt(at) === 0x31 || text.charCodeAt(at) === 0x30)))
            ok = false;
        }
        v++;
        at = next + 1;
      }
    }
    if (!ok || at <= text.length) continue;
    let index = codeIndex.get(lineCodes);
    if (index === undefined) {
      index = codes.length;
      codes.push(lineCodes);
      codeIndex.set(lineCodes, index);
    }
    shapeOf[line] = index;
    k = v;
  }
  firsts[n] = k;
  return { shapes: shapeOf, codes, firsts, bounds: bounds.slice(0, 2 * k), numbers: numbers.slice(0, k) };
}

/**
 * The command of line `i` of a parsed page, `text` being that line: what decodeCommand(text) gives
 * (it is called for the lines the parse left to it). `resolved` caches the page's shapes, one per
 * entry of `page.codes` (pass a new array per page).
 */
export function decodeParsedLine(text: string, page: ParsedJournalPage, i: number, resolved: unknown[]): Command {
  const index = page.shapes[i] as number;
  if (index < 0) return decodeCommand(text);
  let shape = resolved[index] as Shape | undefined;
  if (shape === undefined) {
    const lineCodes = page.codes[index] as string;
    shape = shapes.get(lineCodes);
    if (shape === undefined) {
      shape = parseShape(lineCodes);
      if (shapes.size >= SHAPES_MAX) shapes.clear();
      shapes.set(lineCodes, shape);
    }
    resolved[index] = shape;
  }
  const { kinds, consts } = shape;
  const { bounds, numbers } = page;
  const values = lineValues;
  let v = page.firsts[i] as number;
  for (let j = 0; j < kinds.length; j++) {
    const kind = kinds[j];
    if (kind === CONST) {
      values[j] = consts[j];
      continue;
    }
    if (kind === NUM) values[j] = numbers[v];
    else {
      const raw = text.slice(bounds[2 * v] as number, bounds[2 * v + 1] as number);
      values[j] = kind === STR ? raw : kind === BOOL ? raw === '1' : JSON.parse(raw);
    }
    v++;
  }
  const command = shape.build(values);
  if (typeof command.id !== 'string' || typeof command.timeMs !== 'number')
    throw new Error(`not an engine command: ${text.slice(0, 200)}`);
  return command as Command;
}

/**
 * Reads a journal line in either format, marked or not (see above). Field-level validation happens in
 * apply(), which answers invalid_command; a line that is not a command at all throws.
 */
export function decodeCommand(text: string): Command {
  const first = text.charCodeAt(0);
  const from = first === NEW_CODE || first === REPEAT_CODE ? 1 : 0;
  if (text.charCodeAt(from) === COMPACT_CODE) return decodeCompact(text, from);
  const value: unknown = JSON.parse(from === 0 ? text : text.slice(from));
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { id?: unknown }).id !== 'string' ||
    typeof (value as { timeMs?: unknown }).timeMs !== 'number' ||
    !COMMAND_TYPES.includes((value as { type?: unknown }).type as CommandType)
  ) {
    throw new Error(`not an engine command: ${text.slice(0, 200)}`);
  }
  return value as Command;
}

/** A key-order-independent serialization, to compare two commands with the same id. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return typeof value === 'bigint' ? `"${value}"` : JSON.stringify(value);
}
