import { btcPerp, btcUsdt, CommandFactory, reliance, SeededRandom } from '@bourse/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONST, NUM, STR } from './command-family.ts';
import {
  COMMAND_TYPES,
  type Command,
  type CommandType,
  decodeCommand,
  decodeParsedLine,
  encodeCommand,
  encodeJournalLine,
  JOURNAL_NEW,
  JOURNAL_REPEAT,
  JOURNAL_UNMARKED,
  journalKeyCode,
  journalMark,
  parseJournalPage,
} from './commands.ts';
import { Engine } from './engine.ts';
import { FAMILIES, type FamilyCommand } from './families.ts';
import { toJsonSafe } from './json-codec.ts';
import { TRANSFER_CAUSES, WALLETS } from './ledger.ts';

/** What a journal line must give back: the command as a JSON round trip gives it, keys in the same order. */
const viaJson = (command: unknown) => JSON.stringify(command);

type FamilyType = FamilyCommand['type'];

/**
 * Every key of each command type, and a value of the kind it usually holds: written out for the core
 * commands, made from what its module declares for a family's (familyKeys), so a new family needs no line here.
 */
const KEYS: Record<CommandType, Record<string, fc.Arbitrary<unknown>>> = (() => {
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    // What the compact format must not write as it is: tabs and other controls, lone surrogates…
    fc.string({
      unit: fc.constantFrom('\t', '\n', '\0', '\u001f', '\ud800', '\udc00', '😀', 'ü', 'ユ', '~', '*', '"'),
    }),
    fc.constantFrom(
      '',
      'user1',
      'BTC-USDT',
      'NSE:TCS',
      'SHARE:NSE:TCS',
      'rail:upi',
      'ユーザー',
      '12345678901234567890.5',
    ),
  );
  const int = fc.oneof(fc.integer({ min: 0, max: 20_000_000 }), fc.maxSafeInteger());
  const time = fc.integer({ min: 0, max: 4_000_000_000_000 });
  const trigger = fc.record({
    kind: fc.constantFrom('stop', 'take_profit'),
    priceTicks: int,
    by: fc.constantFrom('last', 'mark'),
  });
  const spec = fc.constantFrom(btcUsdt(), reliance({ lockBoughtUntilSettled: true }), btcPerp(), {
    id: 'X',
    kind: 'odd',
  });
  const base = { id: text, timeMs: time };
  const core: Record<Exclude<CommandType, FamilyType>, Record<string, fc.Arbitrary<unknown>>> = {
    set_trading_status: { ...base, instrumentId: text, halted: fc.boolean() },
    place_order: {
      ...base,
      userId: text,
      instrumentId: text,
      side: fc.constantFrom('buy', 'sell'),
      orderType: fc.constantFrom('limit', 'market'),
      priceTicks: int,
      qtyLots: int,
      timeInForce: fc.constantFrom('gtc', 'ioc', 'fok'),
      postOnly: fc.boolean(),
      trigger,
      stp: fc.constantFrom('cancel_resting', 'cancel_taker', 'cancel_both'),
      reduceOnly: fc.boolean(),
    },
    cancel_order: { ...base, userId: text, orderId: int },
    amend_order: { ...base, userId: text, orderId: int, priceTicks: int, qtyLots: int },
  };
  // A family's key: as a core command's key of that name, else by its declared kind (a closed set also
  // gets a value outside it, written as JSON).
  const shared = new Map<string, fc.Arbitrary<unknown>>([
    ...Object.values(core).flatMap((keys) => Object.entries(keys)),
    // Richer than the kind alone: real instrument specs and an odd one.
    ['instrument', spec],
  ]);
  const ofKey = (key: string): fc.Arbitrary<unknown> => {
    const known = shared.get(key);
    if (known !== undefined) return known;
    const [, kind, values = []] = journalKeyCode(key) ?? ['', STR];
    if (kind === CONST) return fc.constantFrom(...values, 'outside_the_set');
    return kind === STR ? text : kind === NUM ? int : fc.jsonValue({ maxDepth: 2 });
  };
  const familyKeys = Object.fromEntries(
    FAMILIES.flatMap((family) =>
      Object.entries(family.commands).map(([type, spec]) => [
        type,
        { ...base, ...Object.fromEntries((spec.keys as readonly string[]).map((key) => [key, ofKey(key)])) },
      ]),
    ),
  ) as unknown as Record<FamilyType, Record<string, fc.Arbitrary<unknown>>>;
  return { ...core, ...familyKeys };
})();

/** Anything a caller might put in a field: other types, NaN, -0, nested JSON, undefined. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 0.1, null, undefined, true, '7', 'sideways'),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A command of `type` with some of its keys, maybe odd values and unknown keys, in any key order. */
function commandOf(type: CommandType, { odd }: { odd: boolean }): fc.Arbitrary<Record<string, unknown>> {
  const keys = KEYS[type];
  const entries = Object.entries(keys).map(([key, natural]) =>
    fc.tuple(
      fc.constant(key),
      odd ? fc.oneof({ weight: 4, arbitrary: natural }, { weight: 1, arbitrary: oddValue }) : natural,
      // id and timeMs are almost always there; any other key about two times in three.
      key === 'id' || key === 'timeMs' ? fc.double({ min: 0, max: 1 }).map((x) => x < 0.97 || !odd) : fc.boolean(),
    ),
  );
  const typeEntry = fc.constant(['type', type, true] as [string, unknown, boolean]);
  const extra = odd ? fc.array(fc.tuple(fc.string(), oddValue, fc.constant(true)), { maxLength: 1 }) : fc.constant([]);
  return fc
    .tuple(fc.tuple(typeEntry, ...entries), extra)
    .chain(([known, more]) => {
      const present = [...known, ...more].filter(([, , keep]) => keep);
      return fc.shuffledSubarray(present, { minLength: present.length, maxLength: present.length });
    })
    .map((picked) => {
      const command: Record<string, unknown> = {};
      for (const [key, value] of picked) command[key] = value;
      return command;
    });
}

const anyType = fc.constantFrom(...COMMAND_TYPES);

describe('journal encoding of commands', () => {
  it('writes every command type compactly and reads it back exactly, keys in the same order', () => {
    fc.assert(
      fc.property(
        anyType.chain((type) => commandOf(type, { odd: false })),
        (command) => {
          const line = encodeCommand(command as Command);
          expect(line.startsWith('~')).toBe(true);
          expect(viaJson(decodeCommand(line))).toBe(viaJson(command));
          expect(decodeCommand(line)).toEqual(JSON.parse(viaJson(command)));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('reads back what JSON.parse(JSON.stringify(command)) gives, for any values and keys', () => {
    fc.assert(
      fc.property(
        anyType.chain((type) => commandOf(type, { odd: true })),
        (command) => {
          const line = encodeCommand(command as Command);
          // A TEXT column stores UTF-8: the line must survive it, and PostgreSQL refuses NUL.
          expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
          expect(line.includes('\0')).toBe(false);
          // Compact, or exactly what earlier versions wrote.
          if (!line.startsWith('~')) expect(line).toBe(viaJson(command));
          let fromJson: string | Error;
          try {
            fromJson = viaJson(decodeCommand(viaJson(command)));
          } catch (error) {
            fromJson = error as Error;
          }
          if (fromJson instanceof Error) expect(() => decodeCommand(line)).toThrow(/not an engine command/);
          else expect(viaJson(decodeCommand(line))).toBe(fromJson);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('keeps the order of keys inside trigger and instrument, and odd values of known keys', () => {
    const command = {
      type: 'place_order',
      qtyLots: 3,
      trigger: { by: 'mark', priceTicks: 10, kind: 'stop' },
      id: 'ユーザー\t1',
      side: 'sideways',
      priceTicks: '12',
      postOnly: 0,
      timeMs: 5,
      userId: 'u😀',
      stp: undefined,
      orderType: Number.NaN,
    };
    const line = encodeCommand(command as unknown as Command);
    expect(line).toBe(
      '~Pyqg*i*s*p*Pt*u*o\t3\t{"by":"mark","priceTicks":10,"kind":"stop"}\t"ユーザー\\t1"\t"sideways"\t"12"\t0\t5\t"u😀"\tnull',
    );
    expect(viaJson(decodeCommand(line))).toBe(viaJson(command));
    const register = {
      id: 'r',
      timeMs: 1,
      type: 'register_instrument',
      instrument: { quote: 'USDT', id: 'B', kind: 'spot' },
    };
    expect(viaJson(decodeCommand(encodeCommand(register as unknown as Command)))).toBe(viaJson(register));
  });

  it('marks a journal line new or repeat in front of either format, and reads it back the same', () => {
    fc.assert(
      fc.property(
        anyType.chain((type) => commandOf(type, { odd: true })),
        fc.boolean(),
        (command, repeat) => {
          const plain = encodeCommand(command as Command);
          const line = encodeJournalLine(command as Command, repeat);
          expect(line).toBe((repeat ? '=' : '+') + plain);
          expect(journalMark(line)).toBe(repeat ? JOURNAL_REPEAT : JOURNAL_NEW);
          expect(journalMark(plain)).toBe(JOURNAL_UNMARKED);
          let unmarked: string | Error;
          try {
            unmarked = viaJson(decodeCommand(plain));
          } catch (error) {
            unmarked = error as Error;
          }
          if (unmarked instanceof Error) expect(() => decodeCommand(line)).toThrow(/not an engine command/);
          else expect(viaJson(decodeCommand(line))).toBe(unmarked);
        },
      ),
      { numRuns: 2_000 },
    );
    // Neither mark starts JSON text or a compact line: a line written before marks never reads as marked.
    expect(() => JSON.parse('+1')).toThrow();
    expect(() => JSON.parse('=1')).toThrow();
  });

  it('writes JSON, as before, what the compact format does not cover, and refuses it on reading as before', () => {
    class Odd {
      id = 'x';
      timeMs = 1;
      type = 'deposit';
    }
    const cases: unknown[] = [
      { id: 'x', timeMs: 1, type: 'bogus' },
      { id: 'x', timeMs: 1, type: 'deposit', extra: 1 },
      { timeMs: 1, type: 'deposit' },
      { id: 1, timeMs: 1, type: 'deposit' },
      { id: 'x', timeMs: '1', type: 'deposit' },
      { id: 'x', timeMs: Number.NaN, type: 'deposit' },
      new Odd(),
    ];
    for (const command of cases) {
      const line = encodeCommand(command as Command);
      expect(line).toBe(JSON.stringify(command));
    }
    expect(viaJson(decodeCommand(encodeCommand(cases[1] as Command)))).toBe(viaJson(cases[1]));
    expect(() => decodeCommand(encodeCommand(cases[0] as Command))).toThrow(/not an engine command/);
    expect(() => decodeCommand(encodeCommand(cases[2] as Command))).toThrow(/not an engine command/);
    // A bigint cannot be journaled, as JSON.stringify never could.
    expect(() => encodeCommand({ id: 'x', timeMs: 1, type: 'deposit', amount: 5n } as unknown as Command)).toThrow(
      /BigInt/,
    );
  });

  it('codes every wallet and transfer cause the ledger knows (a new one would be written as JSON)', () => {
    const c = new CommandFactory('BTC-USDT');
    for (const wallet of WALLETS)
      for (const cause of TRANSFER_CAUSES) {
        const line = encodeCommand({ ...c.deposit('alice', 'USDT', '1', wallet), cause });
        expect(line.includes('*'), line).toBe(false);
      }
  });

  it('refuses a damaged compact line instead of guessing', () => {
    const good = '~CityuO\tc1\t5\talice\t7';
    expect(decodeCommand(good)).toEqual({ id: 'c1', timeMs: 5, type: 'cancel_order', userId: 'alice', orderId: 7 });
    for (const bad of [
      '~ZityuO\tc1\t5\talice\t7', // unknown type
      '~Cit?uO\tc1\t5\talice\t7', // unknown key
      '~CituO\tc1\t5\talice\t7', // no type key
      '~Cityuu\tc1\t5\talice\tbob', // a key twice
      '~CityuO\tc1\t5\talice', // a value short
      '~CityuO\tc1\t5\talice\t7\t8', // a value too many
      '~CityuO\tc1\tfive\talice\t7', // not a number
      '~CityuO\tc1\t\talice\t7', // an empty number
      '~CityuOs\tc1\t5\talice\t7', // a closed set's key without its value
      '~CityuOs9\tc1\t5\talice\t7', // a value outside the set
      '~Ci*yuO\tc1\t"cancel_order"\talice\t7', // the type as a value
      '~Ci*tyuO\tc1\t"5"\talice\t7', // timeMs not a number
      '~Cityu*O\tc1\t5\talice\t{', // bad JSON
      '~CityuOP\tc1\t5\talice\t7\t2', // not a boolean
      '~',
    ]) {
      expect(() => decodeCommand(bad), bad).toThrow();
    }
  });
});

describe('journal pages parsed on another thread', () => {
  /** What decodeCommand makes of a line: the command as JSON text, or the message it throws. */
  const outcome = (decode: () => Command): string => {
    try {
      return `ok ${viaJson(decode())}`;
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };
  /** Each line decoded from its parsed page (sent as a worker sends it: a structured clone) and alone. */
  const expectSameAsAlone = (lines: string[]) => {
    const parsed = structuredClone(parseJournalPage(lines));
    const cache: unknown[] = [];
    lines.forEach((line, i) => {
      expect(
        outcome(() => decodeParsedLine(line, parsed, i, cache)),
        line,
      ).toBe(outcome(() => decodeCommand(line)));
    });
  };

  it('gives for every line of a page what decodeCommand gives for it alone, marked or not, either format', () => {
    const line = fc
      .tuple(
        anyType.chain((type) => commandOf(type, { odd: true })),
        fc.constantFrom('+', '=', ''),
      )
      .map(([command, mark]) => mark + encodeCommand(command as Command));
    fc.assert(fc.property(fc.array(line, { maxLength: 40 }), expectSameAsAlone), { numRuns: 500 });
  });

  it('leaves a damaged line to decodeCommand, which refuses it, and reads the lines around it as before', () => {
    const good = '+~CityuO\tc1\t5\talice\t7';
    const damaged = [
      '~ZityuO\tc1\t5\talice\t7',
      '~CityuO\tc1\t5\talice',
      '~CityuO\tc1\t5\talice\t7\t8',
      '=~CityuO\tc1\tfive\talice\t7',
      '~CityuO\tc1\t\talice\t7',
      '~Cityu*O\tc1\t5\talice\t{',
      '~CityuOP\tc1\t5\talice\t7\t2',
      '~Ci*tyuO\tc1\t"5"\talice\t7',
      '~',
      '+',
      '',
    ];
    expectSameAsAlone([good, ...damaged.flatMap((bad) => [bad, good])]);
    for (const bad of damaged) expect(outcome(() => decodeCommand(bad))).toMatch(/^throws/);
  });
});

/** The same command with its keys (and those of its trigger and instrument) in a shuffled order. */
function shuffled<T>(value: T, random: SeededRandom): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, shuffled(item, random)])) as T;
}

/** Every command type, with fills, triggers, a halt, holds and settlement; keys in unusual orders. */
function journal(random: SeededRandom): Command[] {
  const c = new CommandFactory('BTC-USDT');
  const t = new CommandFactory('NSE:TCS');
  const tcs = reliance({ id: 'NSE:TCS', base: 'SHARE:NSE:TCS', lockBoughtUntilSettled: true });
  const commands: Command[] = [c.register(btcUsdt()), t.register(tcs), c.reference(6_000_000, [5_000_000, 7_000_000])];
  for (const user of ['alice', 'bob', 'ユーザー']) {
    commands.push(c.deposit(user, 'USDT', '1000000'), c.deposit(user, 'BTC', '10'), c.deposit(user, 'INR', '100000'));
    commands.push({ ...t.deposit(user, 'SHARE:NSE:TCS', '50', 'stock'), from: 'issuer:NSE', cause: 'allotment' });
    commands.push({
      ...c.deposit(user, 'INR', '500000', 'stock'),
      from: 'rail:upi',
      cause: 'deposit',
      link: `utr:${user}`,
    });
  }
  commands.push(
    c.walletTransfer('alice', 'USDT', 'spot', 'fund', '10.5'),
    {
      id: 'h1',
      timeMs: 2_000,
      type: 'hold_funds',
      userId: 'alice',
      wallet: 'fund',
      asset: 'USDT',
      amount: '5',
      cause: 'withdrawal',
      link: 'w:1',
    },
    { id: 'p1', timeMs: 2_001, type: 'post_hold', holdId: 'h1', to: 'rail:upi', amount: '2' },
    { id: 'v1', timeMs: 2_002, type: 'void_hold', holdId: 'h1' },
    {
      id: 'h2',
      timeMs: 2_003,
      type: 'hold_funds',
      userId: 'bob',
      wallet: 'spot',
      asset: 'USDT',
      amount: '3',
      cause: 'withdrawal',
    },
    { id: 'p2', timeMs: 2_004, type: 'post_hold', holdId: 'h2', to: 'rail:upi' },
    c.mark(6_000_000),
    c.fees(3, 6),
    c.registerAsset('PEPE', 18),
  );
  for (let i = 0; i < 120; i++) {
    const user = random.pick(['alice', 'bob', 'ユーザー']);
    const side = random.chance(0.5) ? 'buy' : 'sell';
    const price = 6_000_000 + random.int(-20, 20);
    const r = random.next();
    if (r < 0.45) commands.push(c.limit(user, side, price, random.int(1, 20)));
    else if (r < 0.5)
      commands.push(c.limit(user, side, price, random.int(1, 5), { timeInForce: random.pick(['ioc', 'fok']) }));
    else if (r < 0.55)
      commands.push(
        c.limit(user, side, price + (side === 'buy' ? -30 : 30), 2, { postOnly: true, stp: 'cancel_both' }),
      );
    else if (r < 0.6) commands.push(c.market(user, side, random.int(1, 10)));
    else if (r < 0.63)
      commands.push(
        c.market(user, side, 1, { kind: 'stop', priceTicks: side === 'buy' ? 6_000_100 : 5_999_900, by: 'mark' }),
      );
    else if (r < 0.66)
      commands.push(
        c.limit(user, side, price, 1, {
          trigger: { kind: 'take_profit', priceTicks: side === 'buy' ? 5_999_950 : 6_000_050, by: 'last' },
        }),
      );
    else if (r < 0.75) commands.push(c.cancel(user, random.int(1, 80)));
    else if (r < 0.82)
      commands.push(
        c.amend(user, random.int(1, 80), random.chance(0.5) ? { qtyLots: 1 } : { priceTicks: price, qtyLots: 30 }),
      );
    else if (r < 0.88) commands.push(t.limit(user, side, 2_000 + random.int(-3, 3), random.int(1, 5)));
    else if (r < 0.9) commands.push(c.mark(6_000_000 + random.int(-150, 150)));
    else if (r < 0.92) commands.push(t.halt(random.chance(0.5)));
    else if (r < 0.94)
      commands.push({
        id: `s${i}`,
        timeMs: 3_000 + i,
        type: 'settle_trades',
        instrumentId: 'NSE:TCS',
        upToTradeId: random.int(1, 60),
      });
    else commands.push(commands[commands.length - random.int(1, 10)] as Command); // a retry of the same object
  }
  commands.push(t.halt(false));
  // A retry whose keys come in another order than the first time: the same body, so the first answer.
  commands.push(shuffled(commands[commands.length - 3] as Command, random));
  // A command of each family type the lines above do not write: one from its declared keys, so a new
  // family is covered here without a line of its own.
  const written = new Set(commands.map((command) => command.type));
  for (const type of COMMAND_TYPES.filter((type) => !written.has(type))) {
    const [sample] = fc.sample(commandOf(type, { odd: false }), { seed: random.int(0, 1_000_000), numRuns: 1 });
    commands.push({ ...sample, id: `family-${type}`, timeMs: 4_000 } as unknown as Command);
  }
  return commands.map((command) => (random.chance(0.8) ? shuffled(command, random) : command));
}

describe('journal replay of commands in unusual key orders', () => {
  const config = { rememberedCommandsMax: 16 };

  it('replays journal lines to the live answers, hash and snapshot', () => {
    const random = new SeededRandom(3);
    const commands = journal(random);
    const live = new Engine(config);
    const answers = commands.map((command) => JSON.stringify(toJsonSafe(live.apply(command))));
    expect(new Set(commands.map((command) => command.type)).size).toBe(COMMAND_TYPES.length);
    expect(answers.filter((a) => a.startsWith('{"ok":true')).length).toBeGreaterThan(commands.length / 2);
    const hash = live.stateHash();
    const snapshot = JSON.stringify(live.snapshot());

    // Lines as the host writes them: each marked by what the live engine made of its command.
    const marker = new Engine(config);
    const compact = commands.map((command) => {
      marker.apply(command);
      return encodeJournalLine(command, marker.lastApplyWasRepeat);
    });
    expect(compact.every((line) => line.startsWith('+~') || line.startsWith('=~'))).toBe(true);
    for (const lines of [compact]) {
      const applied = new Engine(config);
      lines.forEach((line, i) => {
        expect(JSON.stringify(toJsonSafe(applied.apply(decodeCommand(line)))), `line ${i}`).toBe(answers[i]);
      });
      expect(applied.stateHash()).toBe(hash);
      expect(JSON.stringify(applied.snapshot())).toBe(snapshot);

      const replayed = new Engine(config);
      lines.forEach((line, i) => {
        replayed.replay(decodeCommand(line), lines.length - 1 - i, journalMark(line));
      });
      expect(replayed.replayComplete()).toBe(true);
      expect(replayed.stateHash()).toBe(hash);
      expect(JSON.stringify(replayed.snapshot())).toBe(snapshot);
      // Later retries, their keys in yet another order, answer as the live engine does.
      const again = new Engine(config);
      for (const command of commands) again.apply(command);
      for (const command of commands.slice(-2 * config.rememberedCommandsMax)) {
        expect(JSON.stringify(toJsonSafe(replayed.apply(shuffled(command, random))))).toBe(
          JSON.stringify(toJsonSafe(again.apply(command))),
        );
      }
    }
  });
});
