// The audit log's hash chain, checked a page of entries at a time, on SQLite and PostgreSQL: a log of
// several pages verifies with no query reading more than a page, and an edit past the first page is found;
// an earlier check's tip (its newest entry) found again with another hash, or gone, is reported, which the
// chain alone cannot see.

import { type Db, type Sql, testDatabases } from '@bourse/db';
import { describe, expect, it } from 'vitest';
import { type AuditEntry, appendAudit, verifyChain } from './audit.ts';

const dbs = await testDatabases();

const entry = (i: number): AuditEntry => ({
  staffId: null,
  action: 'test.entry',
  targetType: 'test',
  targetId: String(i),
  reason: `entry ${i}`,
  detail: { i },
});

async function append(db: Db, count: number) {
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) await appendAudit(tx, entry(i), 1_000 + i);
  });
}

/** What the tables refuse (UPDATE, DELETE) made possible, as someone with the database's keys could. */
async function dropTriggers(db: Db) {
  if (db.dialect === 'sqlite') {
    await db.run('DROP TRIGGER audit_log_no_update');
    await db.run('DROP TRIGGER audit_log_no_delete');
  } else await db.run('DROP TRIGGER audit_log_no_change ON audit_log');
}

describe.each(dbs)('the audit chain on $dialect', ({ open }) => {
  it('verifies a log of several pages reading at most a page at a time, and finds an edit past the first page', async () => {
    const db = await open();
    try {
      await append(db, 2_500);
      let mostRows = 0;
      const counted: Sql = {
        dialect: db.dialect,
        query: async (text, params) => {
          const rows = await db.query(text, params);
          mostRows = Math.max(mostRows, rows.length);
          return rows as never;
        },
        run: (text, params) => db.run(text, params),
      };
      const sound = await verifyChain(counted);
      expect(mostRows).toBeGreaterThan(0);
      expect(mostRows).toBeLessThanOrEqual(1_000);
      const [newest] = await db.query<{ id: number; hash: string }>(
        'SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1',
      );
      expect(sound).toEqual({ firstBrokenId: null, tipChanged: false, tip: { id: newest?.id, hash: newest?.hash } });

      await dropTriggers(db);
      const [third] = await db.query<{ id: number }>('SELECT id FROM audit_log ORDER BY id LIMIT 1 OFFSET 2100');
      await db.run(`UPDATE audit_log SET reason = 'nothing to see' WHERE id = $1`, [third!.id]);
      expect(await verifyChain(db)).toMatchObject({ firstBrokenId: third!.id, tipChanged: false });
    } finally {
      await db.close();
    }
  });

  it("reports an earlier check's tip found with another hash, or gone, where the chain alone verifies", async () => {
    const db = await open();
    try {
      await append(db, 3);
      const { tip } = await verifyChain(db);
      if (tip === null) throw new Error('no tip');
      expect(await verifyChain(db, tip)).toEqual({ firstBrokenId: null, tipChanged: false, tip });
      // As after the log was rewritten with every hash recomputed: the same id, another hash.
      expect(await verifyChain(db, { id: tip.id, hash: 'f'.repeat(64) })).toEqual({
        firstBrokenId: null,
        tipChanged: true,
        tip,
      });
      // The newest entry removed: what is left still verifies.
      await dropTriggers(db);
      await db.run('DELETE FROM audit_log WHERE id = $1', [tip.id]);
      const after = await verifyChain(db, tip);
      expect(after).toMatchObject({ firstBrokenId: null, tipChanged: true });
      expect(after.tip?.id).toBeLessThan(tip.id);
    } finally {
      await db.close();
    }
  });
});
