// SQL for KYC submissions and their transition table. Plain rows; the rules live in service.ts.

import type { Sql } from '@bourse/db';

export type KycStatus = 'none' | 'pending' | 'succ' | 'fail';
export type KycRow = {
  id: number;
  user_id: number;
  doc_type: 'id_card' | 'driving_licence' | 'passport';
  full_name: string;
  doc_number: string;
  status: KycStatus;
  reason: string;
  created_at: number;
};

const COLUMNS = 'id, user_id, doc_type, full_name, doc_number, status, reason, created_at';

export async function transitionAllowed(db: Sql, from: KycStatus, to: KycStatus): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM kyc_transitions WHERE from_status = $1 AND to_status = $2', [from, to]);
  return rows.length > 0;
}

export async function latestFor(db: Sql, userId: number): Promise<KycRow | undefined> {
  const rows = await db.query<KycRow>(
    `SELECT ${COLUMNS} FROM kyc_submissions WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
    [userId],
  );
  return (
    rows[0] && {
      ...rows[0],
      id: Number(rows[0].id),
      user_id: Number(rows[0].user_id),
      created_at: Number(rows[0].created_at),
    }
  );
}

export async function findById(db: Sql, id: number): Promise<KycRow | undefined> {
  const rows = await db.query<KycRow>(`SELECT ${COLUMNS} FROM kyc_submissions WHERE id = $1`, [id]);
  return (
    rows[0] && {
      ...rows[0],
      id: Number(rows[0].id),
      user_id: Number(rows[0].user_id),
      created_at: Number(rows[0].created_at),
    }
  );
}

export async function insert(
  db: Sql,
  s: { userId: number; docType: string; fullName: string; docNumber: string; front: string; back: string; at: number },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO kyc_submissions (user_id, doc_type, full_name, doc_number, front_image, back_image, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) RETURNING id`,
    [s.userId, s.docType, s.fullName, s.docNumber, s.front, s.back, s.at],
  );
  return Number(rows[0]!.id);
}

export async function decide(db: Sql, id: number, status: KycStatus, reason: string, staffId: number, at: number) {
  await db.run(
    'UPDATE kyc_submissions SET status = $2, reason = $3, reviewed_by = $4, reviewed_at = $5 WHERE id = $1',
    [id, status, reason, staffId, at],
  );
}

export async function setUserStatus(db: Sql, userId: number, status: KycStatus) {
  await db.run('UPDATE users SET id_status = $2 WHERE id = $1', [userId, status]);
}

export async function userStatus(db: Sql, userId: number): Promise<KycStatus> {
  const rows = await db.query<{ id_status: KycStatus }>('SELECT id_status FROM users WHERE id = $1', [userId]);
  return rows[0]?.id_status ?? 'none';
}

export async function pending(db: Sql): Promise<KycRow[]> {
  const rows = await db.query<KycRow>(`SELECT ${COLUMNS} FROM kyc_submissions WHERE status = 'pending' ORDER BY id`);
  return rows.map((r) => ({ ...r, id: Number(r.id), user_id: Number(r.user_id), created_at: Number(r.created_at) }));
}

export async function image(
  db: Sql,
  id: number,
  side: 'front' | 'back',
): Promise<{ user_id: number; data: string } | undefined> {
  const col = side === 'front' ? 'front_image' : 'back_image';
  const rows = await db.query<{ user_id: number; data: string }>(
    `SELECT user_id, ${col} AS data FROM kyc_submissions WHERE id = $1`,
    [id],
  );
  return rows[0] && { user_id: Number(rows[0].user_id), data: rows[0].data };
}
