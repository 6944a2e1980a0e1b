// SQL for content (news, notices, ads), personal messages and notice reads. Returns plain rows; the
// rules (who may see what, which status may change) stay in service.ts. One dialect for both databases;
// a function that must join a caller's transaction takes the transaction handle as `db`.

import type { ContentFields, ContentKind, ContentStatus, MessageKind } from '@bourse/contract';
import type { Param, Sql } from '@bourse/db';

export type ContentRow = {
  id: number;
  kind: ContentKind;
  status: ContentStatus;
  title_en: string;
  title_pt: string;
  summary_en: string;
  summary_pt: string;
  body_en: string;
  body_pt: string;
  source_en: string;
  source_pt: string;
  image_en: string;
  image_pt: string;
  link: string;
  seed_key: string | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  unpublished_at: number | null;
};

export type MessageRow = {
  id: number;
  user_id: number;
  title_en: string;
  title_pt: string;
  body_en: string;
  body_pt: string;
  created_at: number;
  read_at: number | null;
};

export type CentreRow = {
  kind: MessageKind;
  id: number;
  title_en: string;
  title_pt: string;
  summary_en: string;
  summary_pt: string;
  body_en: string;
  body_pt: string;
  at: number;
  is_read: number | boolean;
};

/** The column list of an item's editable fields, in the order the statements below bind them. */
export const FIELD_COLUMNS = [
  ['titleEn', 'title_en'],
  ['titlePt', 'title_pt'],
  ['summaryEn', 'summary_en'],
  ['summaryPt', 'summary_pt'],
  ['bodyEn', 'body_en'],
  ['bodyPt', 'body_pt'],
  ['sourceEn', 'source_en'],
  ['sourcePt', 'source_pt'],
  ['imageEn', 'image_en'],
  ['imagePt', 'image_pt'],
  ['link', 'link'],
] as const satisfies readonly (readonly [keyof ContentFields, keyof ContentRow])[];

// --- what customers read ------------------------------------------------------------------------

export const countPublishedNews = async (db: Sql) =>
  Number(
    (
      await db.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM content_items WHERE kind = 'news' AND status = 'published'",
      )
    )[0]?.n ?? 0,
  );

export const listPublished = (db: Sql, kind: ContentKind, limit: number, offset: number) =>
  db.query<ContentRow>(
    `SELECT * FROM content_items WHERE kind = $1 AND status = 'published'
       ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [kind, limit, offset],
  );

export const findPublished = async (db: Sql, kind: ContentKind, id: number) =>
  (
    await db.query<ContentRow>("SELECT * FROM content_items WHERE id = $1 AND kind = $2 AND status = 'published'", [
      id,
      kind,
    ])
  )[0];

/** Personal messages and published notices as one list (optionally one kind), with this user's read state. */
function centreSql(userId: number, kind: MessageKind | undefined): { sql: string; params: Param[] } {
  const messages = `SELECT 'message' AS kind, m.id, m.title_en, m.title_pt, '' AS summary_en, '' AS summary_pt,
      m.body_en, m.body_pt, m.created_at AS at, CASE WHEN m.read_at IS NULL THEN 0 ELSE 1 END AS is_read
    FROM user_messages m WHERE m.user_id = $1`;
  const notices = `SELECT 'notice' AS kind, c.id, c.title_en, c.title_pt, c.summary_en, c.summary_pt,
      c.body_en, c.body_pt, c.published_at AS at, CASE WHEN r.user_id IS NULL THEN 0 ELSE 1 END AS is_read
    FROM content_items c LEFT JOIN notice_reads r ON r.item_id = c.id AND r.user_id = $1
    WHERE c.kind = 'notice' AND c.status = 'published'`;
  const sql = kind === 'message' ? messages : kind === 'notice' ? notices : `${messages} UNION ALL ${notices}`;
  return { sql, params: [userId] };
}

export async function countCentre(db: Sql, userId: number, kind: MessageKind | undefined) {
  const { sql, params } = centreSql(userId, kind);
  const [count] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM (${sql}) x`, params);
  return Number(count?.n ?? 0);
}

export function listCentre(db: Sql, userId: number, kind: MessageKind | undefined, limit: number, offset: number) {
  const { sql, params } = centreSql(userId, kind);
  return db.query<CentreRow>(
    `SELECT * FROM (${sql}) x ORDER BY x.at DESC, x.kind, x.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
}

export async function findCentreEntry(db: Sql, userId: number, kind: MessageKind, id: number) {
  const { sql, params } = centreSql(userId, kind);
  const [row] = await db.query<CentreRow>(`SELECT * FROM (${sql}) x WHERE x.id = $${params.length + 1}`, [
    ...params,
    id,
  ]);
  return row;
}

export const countUnreadMessages = async (db: Sql, userId: number) =>
  Number(
    (
      await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM user_messages WHERE user_id = $1 AND read_at IS NULL', [
        userId,
      ])
    )[0]?.n ?? 0,
  );

export const countUnreadNotices = async (db: Sql, userId: number) =>
  Number(
    (
      await db.query<{ n: number }>(
        `SELECT COUNT(*) AS n FROM content_items c
       WHERE c.kind = 'notice' AND c.status = 'published'
         AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.item_id = c.id AND r.user_id = $1)`,
        [userId],
      )
    )[0]?.n ?? 0,
  );

export async function markAllRead(db: Sql, userId: number, now: number) {
  await db.run('UPDATE user_messages SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [userId, now]);
  await db.run(
    `INSERT INTO notice_reads (user_id, item_id, read_at)
           SELECT CAST($1 AS BIGINT), c.id, CAST($2 AS BIGINT) FROM content_items c
           WHERE c.kind = 'notice' AND c.status = 'published'
             AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.item_id = c.id AND r.user_id = $1)`,
    [userId, now],
  );
}

export const findUserMessage = async (db: Sql, id: number, userId: number) =>
  (await db.query<MessageRow>('SELECT * FROM user_messages WHERE id = $1 AND user_id = $2', [id, userId]))[0];

export const markMessageRead = (db: Sql, id: number, now: number) =>
  db.run('UPDATE user_messages SET read_at = $2 WHERE id = $1', [id, now]);

export const markNoticeRead = (db: Sql, userId: number, itemId: number, now: number) =>
  db.run(
    'INSERT INTO notice_reads (user_id, item_id, read_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, item_id) DO NOTHING',
    [userId, itemId, now],
  );

// --- what staff write ---------------------------------------------------------------------------

export async function countItems(db: Sql, clause: string, params: Param[]) {
  const [count] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM content_items c ${clause}`, params);
  return Number(count?.n ?? 0);
}

/** `clause` is a WHERE built by the caller from fixed column names; values only ever travel as `params`. */
export const listItemsWithAuthor = (db: Sql, clause: string, params: Param[], limit: number, offset: number) =>
  db.query<ContentRow & { author: string | null }>(
    `SELECT c.*, s.username AS author FROM content_items c LEFT JOIN staff s ON s.id = c.created_by ${clause}
       ORDER BY c.updated_at DESC, c.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );

export const findItemWithAuthor = async (db: Sql, id: number) =>
  (
    await db.query<ContentRow & { author: string | null }>(
      'SELECT c.*, s.username AS author FROM content_items c LEFT JOIN staff s ON s.id = c.created_by WHERE c.id = $1',
      [id],
    )
  )[0];

export const findItem = async (db: Sql, id: number) =>
  (await db.query<ContentRow>('SELECT * FROM content_items WHERE id = $1', [id]))[0];

export async function insertItem(
  db: Sql,
  i: {
    kind: ContentKind;
    status: ContentStatus;
    fields: ContentFields;
    staffId: number;
    now: number;
    publishedAt: number | null;
  },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO content_items (kind, status, ${FIELD_COLUMNS.map(([, c]) => c).join(', ')},
           created_by, updated_by, created_at, updated_at, published_at)
         VALUES ($1, $2, ${FIELD_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')}, $14, $14, $15, $15, $16)
         RETURNING id`,
    [i.kind, i.status, ...FIELD_COLUMNS.map(([f]) => i.fields[f]), i.staffId, i.now, i.publishedAt],
  );
  return row!.id;
}

export const updateItemFields = (db: Sql, id: number, fields: ContentFields, staffId: number, now: number) =>
  db.run(
    `UPDATE content_items SET ${FIELD_COLUMNS.map(([, c], i) => `${c} = $${i + 2}`).join(', ')},
           updated_by = $13, updated_at = $14 WHERE id = $1`,
    [id, ...FIELD_COLUMNS.map(([f]) => fields[f]), staffId, now],
  );

export const setPublished = (db: Sql, id: number, staffId: number, now: number) =>
  db.run(
    "UPDATE content_items SET status = 'published', published_at = $2, unpublished_at = NULL, updated_by = $3, updated_at = $2 WHERE id = $1",
    [id, now, staffId],
  );

export const deleteNoticeReads = (db: Sql, itemId: number) =>
  db.run('DELETE FROM notice_reads WHERE item_id = $1', [itemId]);

export const setUnpublished = (db: Sql, id: number, staffId: number, now: number) =>
  db.run(
    "UPDATE content_items SET status = 'unpublished', unpublished_at = $2, updated_by = $3, updated_at = $2 WHERE id = $1",
    [id, now, staffId],
  );

export const userExists = async (db: Sql, userId: number) =>
  (await db.query<{ id: number }>('SELECT id FROM users WHERE id = $1', [userId])).length > 0;

export async function insertMessage(
  db: Sql,
  m: { userId: number; titleEn: string; titlePt: string; bodyEn: string; bodyPt: string; staffId: number; now: number },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO user_messages (user_id, title_en, title_pt, body_en, body_pt, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [m.userId, m.titleEn, m.titlePt, m.bodyEn, m.bodyPt, m.staffId, m.now],
  );
  return row!.id;
}

export async function countSentMessages(db: Sql, userId: number | undefined) {
  const clause = userId ? 'WHERE m.user_id = $1' : '';
  const params: Param[] = userId ? [userId] : [];
  const [count] = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM user_messages m ${clause}`, params);
  return Number(count?.n ?? 0);
}

export function listSentMessages(db: Sql, userId: number | undefined, limit: number, offset: number) {
  const clause = userId ? 'WHERE m.user_id = $1' : '';
  const params: Param[] = userId ? [userId] : [];
  return db.query<MessageRow & { area_code: string; national_number: string; sender: string | null }>(
    `SELECT m.*, u.area_code, u.national_number, s.username AS sender
       FROM user_messages m JOIN users u ON u.id = m.user_id LEFT JOIN staff s ON s.id = m.created_by ${clause}
       ORDER BY m.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
}

// --- seeding (paper mode) -----------------------------------------------------------------------

export function seedItem(
  db: Sql,
  seedKey: string,
  kind: ContentKind,
  fields: Partial<ContentFields>,
  publishedAt: number,
) {
  const values = FIELD_COLUMNS.map(([f]) => fields[f] ?? '');
  return db.run(
    `INSERT INTO content_items (kind, status, ${FIELD_COLUMNS.map(([, c]) => c).join(', ')},
         seed_key, created_at, updated_at, published_at)
       VALUES ($1, 'published', ${FIELD_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}, $13, $14, $14, $14)
       ON CONFLICT (seed_key) DO NOTHING`,
    [kind, ...values, seedKey, publishedAt],
  );
}

export const seedMessage = (
  db: Sql,
  seedKey: string,
  userId: number,
  f: { titleEn: string; titlePt: string; bodyEn: string; bodyPt: string },
  at: number,
) =>
  db.run(
    `INSERT INTO user_messages (user_id, title_en, title_pt, body_en, body_pt, seed_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (seed_key) DO NOTHING`,
    [userId, f.titleEn, f.titlePt, f.bodyEn, f.bodyPt, seedKey, at],
  );

// --- pages of fixed text ---

export async function findPage(db: Sql, slug: string) {
  const rows = await db.query<{
    title_en: string;
    title_pt: string;
    body_en: string;
    body_pt: string;
    updated_at: number;
    author: string | null;
  }>(
    `SELECT p.title_en, p.title_pt, p.body_en, p.body_pt, p.updated_at, s.username AS author
     FROM content_pages p LEFT JOIN staff s ON s.id = p.updated_by WHERE p.slug = $1`,
    [slug],
  );
  return rows[0];
}

export async function savePage(
  db: Sql,
  p: { slug: string; titleEn: string; titlePt: string; bodyEn: string; bodyPt: string },
  staffId: number,
  now: number,
) {
  await db.run('DELETE FROM content_pages WHERE slug = $1', [p.slug]);
  await db.run(
    `INSERT INTO content_pages (slug, title_en, title_pt, body_en, body_pt, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [p.slug, p.titleEn, p.titlePt, p.bodyEn, p.bodyPt, staffId, now],
  );
}
