// A small deterministic engine for the host's tests (a keyed counter with a hash), importable by the
// snapshot worker as `snapshotEngine`.

import { createHash } from 'node:crypto';
import type { Db } from '@bourse/db';
import { EngineHost, type EngineHostOptions, type ReplayableEngine } from './engine-host.ts';
import type { SnapshotEngineModule } from './snapshot-worker.ts';

export type Cmd = { key: string; add: number };

export class Counter implements ReplayableEngine<Cmd, number> {
  values = new Map<string, number>();
  apply(c: Cmd) {
    const v = (this.values.get(c.key) ?? 0) + c.add;
    this.values.set(c.key, v);
    return v;
  }
  stateHash() {
    return createHash('sha256')
      .update(JSON.stringify([...this.values].sort()))
      .digest('hex');
  }
  snapshot() {
    return [...this.values];
  }
}

export const snapshotEngine = {
  create: () => new Counter(),
  restore: (s: unknown) => Object.assign(new Counter(), { values: new Map(s as [string, number][]) }),
  decode: (t: string) => JSON.parse(t) as Cmd,
} satisfies SnapshotEngineModule;

/** A host of a Counter, its commands journaled as JSON, a snapshot due every 250 commands. */
export const openCounterHost = (db: Db, extra: Partial<EngineHostOptions<Cmd, number, Counter>> = {}) =>
  EngineHost.open<Cmd, number, Counter>({
    db,
    create: snapshotEngine.create,
    restore: snapshotEngine.restore,
    encode: (c) => JSON.stringify(c),
    decode: snapshotEngine.decode,
    snapshotEvery: 250,
    ...extra,
  });
