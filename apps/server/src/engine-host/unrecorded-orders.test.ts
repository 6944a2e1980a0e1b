// The unrecorded order ids on both databases: runs of ids merge with the ranges either side of them in
// any order of arrival, so ids that end up consecutive take one row.

import { testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { addUnrecorded } from './unrecorded-orders.ts';

const dbs = await testDatabases();

describe.each(dbs)('unrecorded order ids on $dialect', ({ open }) => {
  it('merges runs with their neighbours whatever order they come in', async () => {
    const db = await open();
    try {
      const ranges = async () =>
        (
          await db.query<{ from_id: unknown; to_id: unknown }>(
            'SELECT from_id, to_id FROM unrecorded_order_ids ORDER BY from_id',
          )
        ).map((r) => [Number(r.from_id), Number(r.to_id)]);
      await db.transaction((tx) => addUnrecorded(tx, [5, 3, 4, 10]));
      expect(await ranges()).toEqual([
        [3, 5],
        [10, 10],
      ]);
      await db.transaction((tx) => addUnrecorded(tx, [11, 12, 1]));
      expect(await ranges()).toEqual([
        [1, 1],
        [3, 5],
        [10, 12],
      ]);
      // 2 joins both sides; 6 … 9 closes the last gap.
      await db.transaction((tx) => addUnrecorded(tx, [2]));
      await db.transaction((tx) => addUnrecorded(tx, [9, 7, 6, 8]));
      expect(await ranges()).toEqual([[1, 12]]);
    } finally {
      await db.close();
    }
  });
});
