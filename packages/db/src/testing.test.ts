// The PostgreSQL test database handed out again after a test closes it must look just migrated: no
// row of the last test, ids from 1, the migrations' own rows back, the append-only tables empty.

import { describe, expect, it } from 'vitest';
import { testDatabases } from './testing.ts';

const postgres = (await testDatabases()).filter((d) => d.dialect === 'postgres');

describe.each(postgres)('test databases on $dialect', ({ open }) => {
  const fill = async (db: Awaited<ReturnType<typeof open>>) => {
    const [user] = await db.query<{ id: number }>(
      `INSERT INTO users (phone, area_code, national_number, password_hash, invite_code, created_at, updated_at)
       VALUES ('+919876543210', '91', '9876543210', 'h', 'INV1', 1, 1) RETURNING id`,
    );
    await db.run("INSERT INTO engine_journal (seq, command) VALUES (1, 'x')");
    await db.run(
      "INSERT INTO audit_log (at, action, target_type, target_id, reason, detail, prev_hash, hash) VALUES (1, 'a', 't', '1', 'r', '{}', '', 'h')",
    );
    return user!.id;
  };
  const state = async (db: Awaited<ReturnType<typeof open>>) => ({
    users: (await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM users'))[0]!.n,
    journal: (await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM engine_journal'))[0]!.n,
    audit: (await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM audit_log'))[0]!.n,
    migrations: (await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM schema_migrations'))[0]!.n,
    kycTransitions: (await db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM kyc_transitions'))[0]!.n,
  });

  it('hands a closed schema to the next open() just as migrated: empty tables, ids from 1, reference rows kept', async () => {
    const first = await open();
    const fresh = await state(first);
    expect(fresh.users).toBe(0);
    expect(fresh.migrations).toBeGreaterThan(0);
    expect(fresh.kycTransitions).toBeGreaterThan(0);
    expect(await fill(first)).toBe(1);
    const schema = first.readSource?.dialect === 'postgres' ? first.readSource.schema : undefined;
    await first.close();

    const second = await open();
    try {
      // The same schema, reused (the point), and nothing of the first test in it.
      expect(second.readSource?.dialect === 'postgres' ? second.readSource.schema : undefined).toBe(schema);
      expect(await state(second)).toEqual(fresh);
      expect(await fill(second)).toBe(1);
      // The append-only audit log was emptied, yet still refuses deletes from the application.
      await expect(second.run('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    } finally {
      await second.close();
    }
  });

  it('drops, rather than reuses, a schema whose test changed the schema itself', async () => {
    const first = await open();
    const schema = first.readSource?.dialect === 'postgres' ? first.readSource.schema : undefined;
    await first.run('DROP TRIGGER audit_log_no_change ON audit_log');
    await first.close();
    const second = await open();
    try {
      expect(second.readSource?.dialect === 'postgres' ? second.readSource.schema : undefined).not.toBe(schema);
      await second.run('DROP TRIGGER audit_log_no_change ON audit_log');
    } finally {
      await second.close();
    }
  });

  it('gives two databases open at once two schemas', async () => {
    const a = await open();
    const b = await open();
    try {
      await fill(a);
      expect((await state(b)).users).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
