import { btcUsdt, CommandFactory, SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import {
  type Command,
  decodeCommand,
  encodeJournalLine,
  JOURNAL_NEW,
  JOURNAL_REPEAT,
  journalMark,
} from './commands.ts';
import { Engine } from './engine.ts';
import { toJsonSafe } from './json-codec.ts';

const WINDOW = 8;
const answer = (engine: Engine, command: Command) => JSON.stringify(toJsonSafe(engine.apply(command)));

/**
 * A journal as the host writes one: trading commands, with repeats of recent and older ids (retries),
 * ids reused with another body, and commands apply() refuses before looking at the window.
 */
function journal(seed: number, length: number): Command[] {
  const random = new SeededRandom(seed);
  const c = new CommandFactory('BTC-USDT');
  const users = ['alice', 'bob', 'carol', 'dave'];
  const commands: Command[] = [c.register(btcUsdt())];
  for (const user of users) commands.push(c.deposit(user, 'USDT', '1000000'), c.deposit(user, 'BTC', '10'));
  while (commands.length < length) {
    const r = random.next();
    const user = random.pick(users);
    if (r < 0.02) {
      // A client retrying in a loop: a burst of repeats that adds nothing to the window.
      const last = commands[commands.length - 1] as Command;
      for (let n = random.int(4, 12); n > 0; n--) commands.push(last);
    } else if (r < 0.2) {
      // A retry of a recent command (often still remembered) or an old one (often forgotten).
      const back = random.chance(0.7) ? random.int(1, 2 * WINDOW) : random.int(1, commands.length);
      commands.push(commands[Math.max(0, commands.length - back)] as Command);
    } else if (r < 0.25) {
      const earlier = commands[commands.length - random.int(1, 3 * WINDOW)] ?? (commands[0] as Command);
      commands.push({
        ...earlier,
        timeMs: earlier.timeMs + 1,
        type: 'cancel_order',
        userId: user,
        orderId: 1,
      } as Command);
    } else if (r < 0.28) {
      commands.push({ ...c.cancel(user, 1), id: '' });
    } else if (r < 0.45) {
      commands.push(c.cancel(user, random.int(1, 60)));
    } else if (r < 0.55) {
      commands.push(c.market(user, random.chance(0.5) ? 'buy' : 'sell', random.int(1, 30)));
    } else {
      const side = random.chance(0.5) ? 'buy' : 'sell';
      const offset = random.int(-3, 20);
      commands.push(c.limit(user, side, side === 'buy' ? 6_000_000 - offset : 6_000_000 + offset, random.int(1, 30)));
    }
  }
  return commands;
}

/**
 * A replay of `commands` must leave the live engine's state: the same hash, no broken invariant, and the
 *  same answers to later retries of every id of their last 4 × WINDOW commands, remembered or
 * forgotten, in the same order (which leaves both states equal again).
 */
function expectSameAsLive(replayed: Engine, live: Engine, commands: readonly Command[], label: string): void {
  expect(replayed.stateHash(), label).toBe(live.stateHash());
  expect(replayed.findBrokenInvariant()).toBeUndefined();
  for (const command of commands.slice(-4 * WINDOW)) {
    expect(answer(replayed, command), `${label}, retry ${command.id}`).toBe(answer(live, command));
  }
  expect(replayed.stateHash()).toBe(live.stateHash());
}

/** The journal's lines as the host writes them today: each command's mark from the live engine. */
function markedLines(commands: readonly Command[], rememberedCommandsMax = WINDOW): { live: Engine; lines: string[] } {
  const live = new Engine({ rememberedCommandsMax });
  const lines = commands.map((command) => {
    live.apply(command);
    return encodeJournalLine(command, live.lastApplyWasRepeat);
  });
  return { live, lines };
}

function replayLines(engine: Engine, lines: readonly string[]): Engine {
  lines.forEach((line, i) => {
    engine.replay(decodeCommand(line), lines.length - 1 - i, journalMark(line));
  });
  return engine;
}

describe('Engine.replay() of journal lines', () => {
  it('leaves the state apply() leaves, for a journal cut at every length, or says it cannot', () => {
    const commands = journal(5, 220);
    let incomplete = 0;
    for (let length = 0; length <= commands.length; length++) {
      const { live, lines } = markedLines(commands.slice(0, length));
      const replayed = replayLines(new Engine({ rememberedCommandsMax: WINDOW }), lines);
      // Complete unless the replay began beyond twice the window (it then empties the window) and the
      // last 2 × WINDOW lines hold fewer than WINDOW new commands with an id.
      const newAtEnd = lines
        .slice(Math.max(0, length - 2 * WINDOW))
        .filter((line) => journalMark(line) === JOURNAL_NEW && decodeCommand(line).id !== '').length;
      const complete = length - 1 < 2 * WINDOW || newAtEnd >= WINDOW;
      expect(replayed.replayComplete(), `length ${length}`).toBe(complete);
      if (!complete) {
        incomplete += 1;
        continue;
      }
      expectSameAsLive(replayed, live, commands.slice(0, length), `length ${length}`);
    }
    expect(incomplete).toBeGreaterThan(0);
    expect(incomplete).toBeLessThan(commands.length / 4);
  });

  it('replays from a snapshot at every cut, its window emptied where the replay outlasts it', () => {
    const commands = journal(7, 160);
    const { live, lines } = markedLines(commands);
    const liveHash = live.stateHash();
    const liveSnapshot = JSON.parse(JSON.stringify(live.snapshot()));
    let cleared = 0;
    for (let cut = 0; cut <= commands.length; cut += 3) {
      const before = new Engine({ rememberedCommandsMax: WINDOW });
      for (const command of commands.slice(0, cut)) before.apply(command);
      const restored = Engine.restore(JSON.parse(JSON.stringify(before.snapshot())));
      const replayed = replayLines(restored, lines.slice(cut));
      if (commands.length - cut - 1 >= 2 * WINDOW) cleared += 1;
      if (!replayed.replayComplete()) continue;
      expect(replayed.stateHash(), `cut ${cut}`).toBe(liveHash);
      // Retries change the engine that answers them (a forgotten id is applied again): a fresh copy each.
      const copy = Engine.restore(liveSnapshot);
      for (const command of commands.slice(-4 * WINDOW)) {
        expect(answer(replayed, command), `cut ${cut}, retry ${command.id}`).toBe(answer(copy, command));
      }
    }
    expect(cleared).toBeGreaterThan(10);
  });

  it('passes over a repeat without reading the window, and never applies one twice', () => {
    const c = new CommandFactory('BTC-USDT');
    const deposit = c.deposit('alice', 'USDT', '100');
    const commands: Command[] = [c.register(btcUsdt()), deposit, deposit, { ...deposit, amount: '5' }];
    const { live, lines } = markedLines(commands, 2);
    expect(lines.map((line) => journalMark(line))).toEqual([JOURNAL_NEW, JOURNAL_NEW, JOURNAL_REPEAT, JOURNAL_REPEAT]);
    // A window of 2 and 100 lines still to come: every line here is replayed quietly.
    const engine = new Engine({ rememberedCommandsMax: 2 });
    lines.forEach((line, i) => {
      engine.replay(decodeCommand(line), 100 - i, journalMark(line));
    });
    expect(engine.balance('alice', 'spot', 'USDT').balance).toBe(100_000_000n);
    expect(live.balance('alice', 'spot', 'USDT').balance).toBe(100_000_000n);
  });

  it('replays with the window off, and with a window larger than the journal', () => {
    const commands = journal(6, 150);
    for (const rememberedCommandsMax of [0, 1, 1_000]) {
      const { live, lines } = markedLines(commands, rememberedCommandsMax);
      const replayed = replayLines(new Engine({ rememberedCommandsMax }), lines);
      expect(replayed.replayComplete()).toBe(true);
      expect(replayed.stateHash()).toBe(live.stateHash());
    }
  });

  it('refuses a journal line without its mark (the journal has one encoding)', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine();
    expect(() => engine.replay(c.register(btcUsdt()), 0, 0)).toThrow(/without its mark/);
  });
});
