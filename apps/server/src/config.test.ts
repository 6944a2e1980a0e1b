// Settings read from the environment: the engine's snapshot settings and their refusals.

import { expect, it } from 'vitest';
import { loadConfig } from './config.ts';

it('takes snapshots every 100,000 commands on a worker unless told otherwise', () => {
  expect(loadConfig({})).toMatchObject({ engineSnapshotEvery: 100_000, engineSnapshots: 'worker' });
  expect(loadConfig({ ENGINE_SNAPSHOT_EVERY: '5000', ENGINE_SNAPSHOTS: 'writer' })).toMatchObject({
    engineSnapshotEvery: 5_000,
    engineSnapshots: 'writer',
  });
});

it('refuses a snapshot interval that is not a positive integer', () => {
  for (const bad of ['0', '-5', '1.5', 'many'])
    expect(() => loadConfig({ ENGINE_SNAPSHOT_EVERY: bad })).toThrow(
      /ENGINE_SNAPSHOT_EVERY must be a positive integer/,
    );
});

it('refuses a snapshot taker it does not know', () => {
  expect(loadConfig({ ENGINE_SNAPSHOTS: 'Writer' }).engineSnapshots).toBe('writer');
  expect(() => loadConfig({ ENGINE_SNAPSHOTS: 'thread' })).toThrow(/ENGINE_SNAPSHOTS must be worker or writer/);
});
