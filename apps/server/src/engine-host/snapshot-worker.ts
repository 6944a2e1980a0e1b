// The snapshot worker: a second copy of the engine on its own thread that takes the periodic snapshots,
// so the writer never stops for one (docs/decisions/0008). At 1,000,000 journaled commands a snapshot is
// ~80 MB of JSON: ~0.5 s to build and ~0.5 s to insert and sync, during which no order was answered.
// It catches up by itself, through a read connection of its own: the snapshot the host started from and
// the journal after it, up to the seq the host reached at start-up. From there on the host sends it
// every batch once durable, as the journal lines it wrote.
// Must hold: it applies exactly the journaled commands, in seq order, from the state of a snapshot the
// host checked, so (the engine being deterministic, as start-up replay already relies on) its state at
// any seq is the writer's. That is checked at the host's close(): the worker's hash at the last seq
// against the writer's, and on a difference the host drops the snapshots the worker stored. A gap in the
// seqs, a snapshot that does not restore to its hash or any other failure ends the worker; the host then
// makes the snapshots on the writer again.

import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { openReader, type ReadSource } from '@bourse/db';
import {
  JOURNAL_PAGE,
  JOURNAL_SCAN,
  type ReplayableEngine,
  restoreSnapshot,
  SNAPSHOT_ROW,
  type SnapshotRow,
  serialise,
} from './engine-host.ts';

/** What a module named by EngineHostOptions.snapshotWorker exports as `snapshotEngine`. */
export type SnapshotEngineModule = {
  create(): ReplayableEngine<unknown, unknown>;
  restore(snapshot: unknown): ReplayableEngine<unknown, unknown>;
  decode(text: string): unknown;
};

export type SnapshotWorkerData = {
  /** URL of the module exporting `snapshotEngine`. */
  module: string;
  source: ReadSource;
  /** The snapshot the host started from (0: none) and the seq its start-up reached. */
  snapshotSeq: number;
  seq: number;
  /** Commands between snapshots. */
  every: number;
};

/** A batch the writer committed and synced: the journal lines of seqs from, from + 1, … */
export type SnapshotWorkerBatch = { from: number; texts: string[] };
/** The host's question at close(): the state hash once everything before has been applied. */
export type SnapshotWorkerCheck = { check: number };
/** The answer: the state hash at seq `checked`. */
export type SnapshotWorkerHash = { checked: number; hash: string };

/** A snapshot to store: the state at `seq`, its JSON gzipped (level 1). */
export type SnapshotMade = { seq: number; hash: string; gzip: Uint8Array };

async function main(port: NonNullable<typeof parentPort>, data: SnapshotWorkerData) {
  // Batches arrive from the start; they wait here until the catch-up below is done.
  const waiting: (SnapshotWorkerBatch | SnapshotWorkerCheck)[] = [];
  let apply: ((message: SnapshotWorkerBatch | SnapshotWorkerCheck) => void) | null = null;
  port.on('message', (message: SnapshotWorkerBatch | SnapshotWorkerCheck) =>
    apply ? apply(message) : waiting.push(message),
  );

  const { snapshotEngine } = (await import(data.module)) as { snapshotEngine: SnapshotEngineModule };
  const reader = await openReader(data.source);
  let engine: ReplayableEngine<unknown, unknown>;
  let seq = data.snapshotSeq;
  try {
    if (seq === 0) engine = snapshotEngine.create();
    else {
      const [row] = await reader.query<SnapshotRow>(SNAPSHOT_ROW, [seq]);
      if (!row) throw new Error(`snapshot worker: no snapshot at ${seq}`);
      engine = restoreSnapshot(snapshotEngine.restore, seq, row);
    }
    // The journal up to where the host's start-up got; what follows comes as batches.
    if (seq < data.seq) {
      for await (const { keys, texts } of reader.scanPages(JOURNAL_SCAN, seq, JOURNAL_PAGE)) {
        for (let i = 0; i < texts.length && seq < data.seq; i++) {
          if (keys[i] !== seq + 1) throw new Error(`snapshot worker: journal gap at ${seq + 1}`);
          engine.apply(snapshotEngine.decode(texts[i] as string));
          seq += 1;
        }
        if (seq === data.seq) break;
      }
      if (seq !== data.seq) throw new Error(`snapshot worker: the journal ends at ${seq}, not ${data.seq}`);
    }
  } finally {
    await reader.close();
  }

  let lastSnapshotSeq = data.snapshotSeq;
  const snapshotIfDue = () => {
    if (seq - lastSnapshotSeq < data.every) return;
    const { json, hash } = serialise(engine);
    // Copied out: a small result of zlib may sit in Node's shared buffer pool, which must not be transferred.
    const gzip = new Uint8Array(gzipSync(json, { level: 1 }));
    lastSnapshotSeq = seq;
    const made: SnapshotMade = { seq, hash, gzip };
    port.postMessage(made, [gzip.buffer]);
  };
  // A start-up that replayed a snapshot's worth of journal: that state is the snapshot due.
  snapshotIfDue();
  apply = (message) => {
    if ('check' in message) {
      const answer: SnapshotWorkerHash = { checked: seq, hash: engine.stateHash() };
      port.postMessage(answer);
      return;
    }
    const { from, texts } = message;
    if (from !== seq + 1) throw new Error(`snapshot worker: expected seq ${seq + 1}, got ${from}`);
    for (const text of texts) engine.apply(snapshotEngine.decode(text));
    seq += texts.length;
    snapshotIfDue();
  };
  for (const message of waiting.splice(0)) apply(message);
}

// Run only as the worker the host starts (the types above are imported elsewhere).
if (parentPort && (workerData as Partial<SnapshotWorkerData> | null)?.module) {
  await main(parentPort, workerData as SnapshotWorkerData);
}
