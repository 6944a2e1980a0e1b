// The trading engine as the host and its snapshot worker build it: one definition, so the worker's copy
// (snapshot-worker.ts) is made, restored and fed exactly as the writer's.

import { decodeCommand, Engine, type EngineSnapshot } from '@bourse/engine';
import type { SnapshotEngineModule } from './snapshot-worker.ts';

export const snapshotEngine = {
  create: () => new Engine(),
  restore: (snapshot: unknown) => Engine.restore(snapshot as EngineSnapshot),
  decode: decodeCommand,
} satisfies SnapshotEngineModule;
