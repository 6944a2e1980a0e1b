import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, testDatabases } from './testing.ts';
import type { Db, Sql } from './types.ts';

const dbs = await testDatabases();

describe.each(dbs)('database on $dialect', ({ open, dialect }) => {
  it('migrates, round-trips parameters, and keeps money as exact strings', async () => {
    const db = await open();
    try {
      const [user] = await db.query<{ id: number }>(
        `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
        ['+919876543210', '91', '9876543210', 'h', 'INV1', 1_700_000_000_000],
      );
      expect(user?.id).toBeTypeOf('number');
      const rows = await db.query<{ phone: string; created_at: number }>(
        'SELECT phone, created_at FROM users WHERE id = $1',
        [user!.id],
      );
      expect(rows).toEqual([{ phone: '+919876543210', created_at: 1_700_000_000_000 }]);
    } finally {
      await db.close();
    }
  });

  it('rolls a failed transaction back whole', async () => {
    const db = await open();
    try {
      await expect(
        db.transaction(async (tx) => {
          await tx.run(
            `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
             VALUES ('+911', '91', '1', 'h', 'A', 1, 1)`,
          );
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await db.query('SELECT id FROM users')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('keeps on orders only the indexes its queries read (migrations 10 and 11 dropped two)', async () => {
    const db = await open();
    try {
      const names = (
        dialect === 'sqlite'
          ? await db.query<{ name: string }>(
              "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'orders' AND sql IS NOT NULL",
            )
          : await db.query<{ name: string }>(
              "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'orders' AND schemaname = current_schema() AND indexname NOT LIKE '%pkey'",
            )
      )
        .map((r) => r.name)
        .sort();
      expect(names).toEqual(['orders_user', 'orders_user_status']);
    } finally {
      await db.close();
    }
  });

  it('commits early transactions in call order; a failing statement rejects at once and writes nothing', async () => {
    const db = await open();
    const insert = (phone: string) =>
      db.transactionEarly!(async (tx) => {
        await tx.run(
          `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
           VALUES ($1, '91', $1, 'h', $1, 1, 1)`,
          [phone],
        );
        return phone;
      });
    try {
      const first = await insert('+9101');
      const second = await insert('+9102');
      expect([first.result, second.result]).toEqual(['+9101', '+9102']);
      const order: string[] = [];
      await Promise.all([first.durable.then(() => order.push('a')), second.durable.then(() => order.push('b'))]);
      expect(order).toEqual(['a', 'b']);
      const phones = await db.query<{ phone: string }>('SELECT phone FROM users ORDER BY phone');
      expect(phones.map((p) => p.phone)).toEqual(['+9101', '+9102']);
      // A statement that fails rejects at once and writes nothing.
      await expect(insert('+9101')).rejects.toThrow();
      expect((await db.query('SELECT phone FROM users')).length).toBe(2);
    } finally {
      await db.close();
    }
  });

  describe('after an early transaction fails, every later one fails, naming the first failure', () => {
    const insertUser = (tx: Sql, phone: string) =>
      tx.run(
        `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
         VALUES ($1, '91', $1, 'h', $1, 1, 1)`,
        [phone],
      );
    const phones = async (db: Db) =>
      (await db.query<{ phone: string }>('SELECT phone FROM users ORDER BY phone')).map((r) => r.phone);
    /** An early transaction to its end: the call, then its reaching the disk (where each may fail). */
    const settled = async (call: Promise<{ durable: Promise<void> }>) => (await call).durable;

    it('one that throws: the ones queued behind it and every one called after it reject', async () => {
      const db = await open();
      const early = (phone: string) => db.transactionEarly!((tx) => insertUser(tx, phone));
      try {
        const before = await early('+9301');
        const boom = new Error('boom');
        let openGate!: () => void;
        const gate = new Promise<void>((resolve) => {
          openGate = resolve;
        });
        const failing = db.transactionEarly!(async (tx) => {
          await insertUser(tx, '+9302');
          await gate;
          throw boom;
        });
        const queued = early('+9303'); // called before the failure is known
        // On PostgreSQL its statements have run, beside the failing one's, and the call has resolved;
        // on SQLite it waits in the queue.
        if (dialect === 'postgres') await queued;
        openGate();
        // Both watched at once, so the queued one's rejection never waits unheard (reported as unhandled).
        const [failingDone, queuedDone] = await Promise.allSettled([settled(failing), settled(queued)]);
        expect(failingDone.status === 'rejected' && failingDone.reason).toBe(boom);
        expect(queuedDone.status === 'rejected' && String(queuedDone.reason)).toMatch(
          /earlier transactionEarly failed.*: boom$/,
        );
        const later = await early('+9304').catch((error: unknown) => error);
        expect(later).toBeInstanceOf(Error);
        expect((later as Error).message).toMatch(/earlier transactionEarly failed.*: boom$/);
        expect((later as Error).cause).toBe(boom);
        await before.durable;
        expect(await phones(db)).toEqual(['+9301']);
      } finally {
        await db.close();
      }
    });

    it('one that fails does not fail one called before it, even while that one is still running', async () => {
      const db = await open();
      const early = (phone: string) => db.transactionEarly!((tx) => insertUser(tx, phone));
      try {
        let openGate!: () => void;
        const gate = new Promise<void>((resolve) => {
          openGate = resolve;
        });
        const first = db.transactionEarly!(async (tx) => {
          await insertUser(tx, '+9501');
          await gate;
        });
        const boom = new Error('boom');
        const second = db.transactionEarly!(async () => {
          throw boom;
        });
        // On PostgreSQL the second's statements run (and fail) while the first's are still waiting.
        if (dialect === 'postgres') await expect(second).rejects.toBe(boom);
        openGate();
        await settled(first);
        await expect(settled(second)).rejects.toBe(boom);
        await expect(early('+9502')).rejects.toThrow(/earlier transactionEarly failed.*: boom$/);
        expect(await phones(db)).toEqual(['+9501']);
      } finally {
        await db.close();
      }
    });

    it('a constraint violated at COMMIT: the ones after it reject and write nothing', async () => {
      const db = await open();
      const early = (phone: string) => db.transactionEarly!((tx) => insertUser(tx, phone));
      try {
        await db.run('CREATE TABLE early_parent (id INTEGER PRIMARY KEY)');
        // Checked at COMMIT, not at the INSERT: the statements succeed and the COMMIT fails.
        await db.run(
          'CREATE TABLE early_child (parent INTEGER REFERENCES early_parent (id) DEFERRABLE INITIALLY DEFERRED)',
        );
        const orphan = db.transactionEarly!((tx) => tx.run('INSERT INTO early_child (parent) VALUES (1)'));
        const queued = early('+9401');
        // Both watched at once: the queued one's durable can reject while the orphan's is still awaited,
        // and a rejection nobody listens to yet is reported as unhandled.
        const [orphanDone, queuedDone] = await Promise.allSettled([settled(orphan), settled(queued)]);
        expect(orphanDone.status === 'rejected' && String(orphanDone.reason)).toMatch(/foreign key/i);
        expect(queuedDone.status === 'rejected' && String(queuedDone.reason)).toMatch(
          /earlier transactionEarly failed.*foreign key/i,
        );
        await expect(early('+9402')).rejects.toThrow(/earlier transactionEarly failed.*foreign key/i);
        expect(await db.query('SELECT parent FROM early_child')).toEqual([]);
        expect(await phones(db)).toEqual([]);
      } finally {
        await db.close();
      }
    });
  });

  it.runIf(dialect === 'postgres')(
    'fails a transaction whose connection dies, without ending the process, and works on afterwards',
    async () => {
      const db = await open();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        for (const early of [false, true]) {
          const work = async (tx: Sql) => {
            const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            // Another session ends this one's backend, as a restart or an operator would.
            await admin.query('SELECT pg_terminate_backend($1)', [row!.pid]);
            await tx.run('SELECT 1');
            return 'unreachable';
          };
          const attempt = early
            ? db.transactionEarly!(work).then(async ({ durable }) => {
                await durable;
                return 'unreachable';
              })
            : db.transaction(work);
          // The dead connection's 'error' event would otherwise have ended this process here.
          // PostgreSQL's "terminating connection…" or pg's "Connection terminated…" / "…connection error…",
          // depending on what the client was doing when the end arrived.
          await expect(attempt).rejects.toThrow(/terminat|connection error/i);
          expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
        }
      } finally {
        await admin.end();
        await db.close();
      }
    },
  );

  it('reads rows as arrays of column values in SELECT order (queryArrays), for SELECTs only', async () => {
    const db = await open();
    try {
      await db.run('INSERT INTO engine_journal (seq, command) VALUES ($1, $2), ($3, $4), ($5, $6)', [
        1,
        '~a',
        2,
        '{"b":"ü\\t"}',
        3,
        'c',
      ]);
      const rows = await db.queryArrays<[number, string]>(
        'SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2',
        [1, 10],
      );
      expect(rows).toEqual([
        [2, '{"b":"ü\\t"}'],
        [3, 'c'],
      ]);
      expect(await db.queryArrays('SELECT command, seq FROM engine_journal WHERE seq = $1', [1])).toEqual([['~a', 1]]);
      // The same statement as objects is unaffected.
      expect(
        await db.query('SELECT seq, command FROM engine_journal WHERE seq > $1 ORDER BY seq LIMIT $2', [2, 10]),
      ).toEqual([{ seq: 3, command: 'c' }]);
      await expect(db.queryArrays('DELETE FROM engine_journal')).rejects.toThrow(/SELECT/);
      expect((await db.query('SELECT seq FROM engine_journal')).length).toBe(3);
    } finally {
      await db.close();
    }
  });

  it.runIf(dialect === 'postgres')(
    'runs an early transaction beside the previous COMMIT: its rows are seen after previousCommitted',
    async () => {
      const db = await open();
      const insert = (tx: Sql, phone: string) =>
        tx.run(
          `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
           VALUES ($1, '91', $1, 'h', $1, 1, 1)`,
          [phone],
        );
      const touch = (tx: Sql) => tx.run("UPDATE users SET email = 'x@y.z' WHERE phone = '+9202'");
      try {
        let openGate!: () => void;
        const gate = new Promise<void>((resolve) => {
          openGate = resolve;
        });
        // C holds its place in line until the gate opens; A's COMMIT waits for C's, so A's row stays
        // uncommitted while B and D run.
        const c = db.transactionEarly!(async (tx) => {
          await insert(tx, '+9201');
          await gate;
        });
        const a = await db.transactionEarly!((tx) => insert(tx, '+9202'));
        const b = await db.transactionEarly!((tx) => touch(tx)); // does not wait: sees no row
        const d = db.transactionEarly!(async (tx, previousCommitted) => {
          await previousCommitted;
          return touch(tx);
        });
        openGate();
        await (await c).durable;
        await a.durable;
        await b.durable;
        expect(b.result).toBe(0);
        expect((await d).result).toBe(1);
      } finally {
        await db.close();
      }
    },
  );

  it('refuses to update or delete audit log rows', async () => {
    const db = await open();
    try {
      await db.run(
        `INSERT INTO audit_log (at, action, target_type, target_id, reason, detail, prev_hash, hash)
         VALUES (1, 'x', 'user', '1', 'r', '{}', '', 'h1')`,
      );
      await expect(db.run(`UPDATE audit_log SET reason = 'changed'`)).rejects.toThrow(/append-only/);
      await expect(db.run('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
      expect(await db.query('SELECT reason FROM audit_log')).toEqual([{ reason: 'r' }]);
    } finally {
      await db.close();
    }
  });
});
