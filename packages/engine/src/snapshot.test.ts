import { applyAll, applyOk, btcUsdt, CommandFactory, placedId, SeededRandom } from '@bourse/testkit';
import { describe, expect, it } from 'vitest';
import type { Command } from './commands.ts';
import { decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';
import { toJsonSafe } from './json-codec.ts';
import type { EngineSnapshot } from './snapshot.ts';
import { hashSnapshot } from './state-hash.ts';

function script(): Command[] {
  const c = new CommandFactory('BTC-USDT');
  return [
    c.register(btcUsdt()),
    c.deposit('alice', 'USDT', '5000'),
    c.deposit('bob', 'BTC', '2'),
    c.reference(10_000, [5_000, 20_000]),
    c.limit('bob', 'sell', 10_100, 50),
    c.limit('bob', 'sell', 10_200, 50),
    c.limit('alice', 'buy', 9_900, 40),
    c.market('alice', 'buy', 10, { kind: 'stop', priceTicks: 10_150, by: 'last' }),
    c.limit('alice', 'buy', 10_100, 20),
    {
      id: 'h1',
      timeMs: 2_000,
      type: 'hold_funds',
      userId: 'alice',
      wallet: 'spot',
      asset: 'USDT',
      amount: '1',
      cause: 'withdrawal',
    },
    c.limit('alice', 'buy', 10_200, 45),
    c.mark(10_300),
    c.limit('bob', 'sell', 9_950, 5, { timeInForce: 'ioc' }),
  ];
}

describe('snapshot and restore', () => {
  it('gives the same state hash as a straight run when restored halfway through JSON and replayed', () => {
    const commands = script();
    const straight = new Engine();
    applyAll(straight, commands);
    for (let cut = 0; cut <= commands.length; cut++) {
      const first = new Engine();
      applyAll(first, commands.slice(0, cut));
      const restored = Engine.restore(JSON.parse(JSON.stringify(first.snapshot())));
      expect(restored.stateHash()).toBe(first.stateHash());
      applyAll(restored, commands.slice(cut));
      expect(restored.stateHash(), `cut at ${cut}`).toBe(straight.stateHash());
      expect(restored.findBrokenInvariant()).toBeUndefined();
    }
  });

  it('replays a journal of encoded commands from empty to the same hash', () => {
    const straight = new Engine();
    applyAll(straight, script());
    const journal = script().map(encodeCommand);
    const replayed = new Engine();
    for (const line of journal) replayed.apply(decodeCommand(line));
    expect(replayed.stateHash()).toBe(straight.stateHash());
  });

  it('keeps idempotency across a restore: a repeated command answers its first result', () => {
    const engine = new Engine();
    const c = new CommandFactory('BTC-USDT');
    applyOk(engine, c.register(btcUsdt()));
    const deposit = c.deposit('alice', 'USDT', '100');
    applyOk(engine, deposit);
    const order = c.limit('alice', 'buy', 10_000, 1);
    const id = placedId(applyOk(engine, order));
    const restored = Engine.restore(JSON.parse(JSON.stringify(engine.snapshot())));
    const again = restored.apply(order);
    expect(again.ok && placedId(again.events)).toBe(id);
    expect(restored.openOrders('alice')).toHaveLength(1);
    expect(restored.apply({ ...deposit, amount: '1' })).toEqual({ ok: false, code: 'command_id_reused' });
  });
});

/** A result as text, keys in their order and bigints marked: equal texts mean deep-equal results, key order included. */
const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/**
 * A busy journal: fills with and without fees (a fee change half way), resting and cancelled orders,
 * stops, a halt with queued orders, funds holds, rejections, retries of recent and old ids, and ids
 * reused with another body.
 */
function busyJournal(seed: number, length: number): Command[] {
  const random = new SeededRandom(seed);
  const c = new CommandFactory('BTC-USDT');
  const users = ['alice', 'bob', 'carol', 'dave'];
  const commands: Command[] = [c.register(btcUsdt()), c.reference(6_000_000, [5_000_000, 7_000_000])];
  for (const user of users) commands.push(c.deposit(user, 'USDT', '1000000'), c.deposit(user, 'BTC', '10'));
  while (commands.length < length) {
    const r = random.next();
    const user = random.pick(users);
    const side = random.chance(0.5) ? 'buy' : 'sell';
    if (r < 0.12) {
      const back = random.chance(0.7) ? random.int(1, 12) : random.int(1, commands.length);
      commands.push(commands[Math.max(0, commands.length - back)] as Command);
    } else if (r < 0.15) {
      const earlier = commands[commands.length - random.int(1, 20)] ?? (commands[0] as Command);
      commands.push({ ...earlier, type: 'cancel_order', userId: user, orderId: 1 } as Command);
    } else if (r < 0.3) {
      commands.push(c.cancel(user, random.int(1, 80)));
    } else if (r < 0.4) {
      commands.push(c.market(user, side, random.int(1, 30)));
    } else if (r < 0.43) {
      const trigger = {
        kind: 'stop' as const,
        priceTicks: side === 'buy' ? 6_000_040 : 5_999_960,
        by: 'last' as const,
      };
      commands.push(c.market(user, side, random.int(1, 5), trigger));
    } else if (r < 0.45) {
      commands.push(c.halt(random.chance(0.5)));
    } else if (r < 0.46) {
      commands.push(c.fees(random.int(0, 9), random.int(0, 9)));
    } else if (r < 0.48) {
      commands.push({
        id: `hold-${commands.length}`,
        timeMs: 9_000 + commands.length,
        type: 'hold_funds',
        userId: user,
        wallet: 'spot',
        asset: 'USDT',
        amount: '1.5',
        cause: 'withdrawal',
      });
    } else if (r < 0.5) {
      commands.push(c.limit('nobody', side, 6_000_000, 1));
    } else {
      const offset = random.int(-3, 30);
      const price = side === 'buy' ? 6_000_000 - offset : 6_000_000 + offset;
      commands.push(c.limit(user, side, price, random.int(1, 30), { postOnly: random.chance(0.1) }));
    }
  }
  return commands;
}

/** Applies `rest`, then retries every command of `journal` (oldest first), to both engines; all answers agree. */
function expectSameFuture(restored: Engine, live: Engine, rest: readonly Command[], journal: readonly Command[]) {
  for (const command of [...rest, ...journal]) {
    const a = restored.apply(command);
    const b = live.apply(command);
    expect(text(a), command.id).toBe(text(b));
    expect(a).toEqual(b);
  }
  expect(restored.stateHash()).toBe(live.stateHash());
  expect(restored.snapshotState().json).toBe(live.snapshotState().json);
}

describe('the snapshot (the window as the command memory keeps it)', () => {
  it('restores through JSON to an engine that answers like the live one, at every cut and window size', () => {
    for (const rememberedCommandsMax of [0, 1, 3, 8, 1_000]) {
      const journal = busyJournal(rememberedCommandsMax + 1, 160);
      for (let cut = 0; cut <= journal.length; cut += rememberedCommandsMax === 8 ? 1 : 5) {
        const live = new Engine({ rememberedCommandsMax });
        for (const command of journal.slice(0, cut)) live.apply(command);
        const { json, hash } = live.snapshotState();
        expect(json, `cut ${cut}`).toBe(JSON.stringify(live.snapshot()));
        expect(hash).toBe(live.stateHash());
        expect(hash).toMatch(/^v5:[0-9a-f]{32}$/);
        const parsed = JSON.parse(json) as EngineSnapshot;
        expect(parsed.version).toBe(3);
        expect(hashSnapshot(parsed)).toBe(hash);
        const restored = Engine.restore(parsed);
        expect(restored.stateHash(), `cut ${cut}`).toBe(hash);
        expect(restored.snapshotState().json).toBe(json);
        expect(restored.findBrokenInvariant()).toBeUndefined();
        expectSameFuture(restored, live, journal.slice(cut), journal.slice(0, cut));
      }
    }
  });

  it('stores the window in its compact form: far smaller than the decoded results', () => {
    const journal = busyJournal(3, 400);
    const live = new Engine({ rememberedCommandsMax: 1_000 });
    for (const command of journal) live.apply(command);
    const { window } = live.snapshot();
    expect(window.ids).toHaveLength(new Set(journal.filter((c) => c.id.length > 0).map((c) => c.id)).size);
    expect(window.commands.map((c) => (c as { id: string }).id)).toEqual(window.ids);
    // Against [id, command, result decoded] per entry, as the window's first form stored it (each
    // result answered from the window: a retry changes nothing).
    const decoded = window.ids.map((id, k) => [
      id,
      window.commands[k],
      toJsonSafe(live.apply(window.commands[k] as Command)),
    ]);
    expect(decoded).toHaveLength(window.ids.length);
    expect(JSON.stringify(window).length).toBeLessThan(JSON.stringify(decoded).length / 2);
  });

  it('keeps the window across rings that have come round (positions past the ring sizes)', () => {
    // 6,000 commands pass the memory's number ring (65,536) and reference ring (16,384) several times.
    const journal = busyJournal(9, 6_000);
    const live = new Engine({ rememberedCommandsMax: 50 });
    journal.forEach((command, i) => {
      live.apply(command);
      if (i % 997 !== 0) return;
      const restored = Engine.restore(JSON.parse(live.snapshotState().json));
      expect(restored.stateHash(), `after ${i + 1}`).toBe(live.stateHash());
      for (const retry of journal.slice(Math.max(0, i - 60), i + 1)) {
        expect(text(restored.apply(retry)), retry.id).toBe(text(live.apply(retry)));
      }
    });
  });

  it('stores a fill settled on the bigint path as on the fast path, and restores it so', () => {
    // A 10% taker fee on a 12,000,000 USDT fill: notional × 1,000 bps passes 2^53, so settlement takes
    // the bigint path, though the notional (1.2e13 minor units) and both fees are safe integers.
    const c = new CommandFactory('BTC-USDT');
    const live = new Engine();
    applyOk(live, c.register(btcUsdt({ maxQtyLots: 2 ** 40, takerFeeBps: 1_000 })));
    applyOk(live, c.deposit('alice', 'USDT', '14000000'));
    applyOk(live, c.deposit('bob', 'BTC', '300'));
    applyOk(live, c.limit('bob', 'sell', 6_000_000, 3_000_000));
    const buy = c.limit('alice', 'buy', 6_000_000, 2_000_000);
    const events = applyOk(live, buy);
    const trade = events.find((e) => e.type === 'trade');
    expect(trade?.type === 'trade' && [trade.notional, trade.takerFee]).toEqual([
      12_000_000_000_000n,
      1_200_000_000_000n,
    ]);
    const restored = Engine.restore(JSON.parse(live.snapshotState().json));
    expect(restored.stateHash()).toBe(live.stateHash());
    expect(restored.snapshotState().json).toBe(live.snapshotState().json);
    expect(text(restored.apply(buy))).toBe(text(live.apply(buy)));
  });

  it('rejects a window whose parts do not fit together', () => {
    const live = new Engine({ rememberedCommandsMax: 10 });
    for (const command of busyJournal(4, 40)) live.apply(command);
    const good = JSON.parse(live.snapshotState().json) as EngineSnapshot;
    const broken = (change: Partial<EngineSnapshot['window']>) => () =>
      Engine.restore({ ...good, window: { ...good.window, ...change } });
    expect(broken({ ids: good.window.ids.slice(1) })).toThrow(/does not fit|do not add up/);
    expect(broken({ nums: good.window.nums.slice(0, -12) })).toThrow(/do not add up|malformed/);
    expect(broken({ ids: [good.window.ids[0] as string, ...good.window.ids.slice(0, -1)] })).toThrow(/twice/);
    // Any other format, older or newer, is refused (one format, issue 22).
    for (const version of [1, 2, 4])
      expect(() => Engine.restore({ ...good, version } as unknown as EngineSnapshot)).toThrow(/format \d is not/);
    const small = new Engine({ rememberedCommandsMax: 10 });
    const tooMany = { ...good, config: { ...good.config, rememberedCommandsMax: 2 } };
    expect(() => Engine.restore(tooMany)).toThrow(/does not fit/);
    expect(small.stateHash()).toMatch(/^v5:/);
  });
});

describe('restoring a snapshot', () => {
  it('refuses a user id that no command could have made', () => {
    const c = new CommandFactory('BTC-USDT');
    const engine = new Engine();
    applyOk(engine, c.register(btcUsdt()));
    applyOk(engine, c.deposit('alice', 'USDT', '100'));
    const snapshot = JSON.parse(JSON.stringify(engine.snapshot()));
    expect(() => Engine.restore(snapshot)).not.toThrow();
    for (const bad of ['a/b', 'platform:fees', '']) {
      const forged = JSON.parse(JSON.stringify(snapshot));
      forged.users[0][0] = bad;
      expect(() => Engine.restore(forged), bad).toThrow(/not a valid user id/);
    }
  });
});
