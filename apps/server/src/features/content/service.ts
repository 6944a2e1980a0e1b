// Owns news, notices, ads and personal messages: what staff write (each write with its audit entry in
// the same transaction), what customers read (published items only, in their language) and who has
// read what. Must hold: a draft or unpublished item is never served to a customer; a customer only ever
// sees their own personal messages. Must not: touch balances or anything beyond its three tables.

import {
  type AdminContentView,
  type AdminMessageView,
  type AdView,
  CONTENT_LIMITS,
  type ContentFields,
  type ContentKind,
  type ContentStatus,
  checkContent,
  type ErrorCode,
  type Lang,
  type MessageCentre,
  type MessageKind,
  type MessageSendBody,
  type MessageView,
  type NewsArticle,
  type NewsView,
  type NoticeArticle,
  type NoticeView,
  type UnreadCounts,
} from '@bourse/contract';
import type { Db, Param, Sql } from '@bourse/db';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { appendAudit } from '../staff/audit.ts';
import type { StaffAuth } from '../staff/service.ts';

type Suffix = 'en' | 'pt';

type ContentRow = {
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

type MessageRow = {
  id: number;
  user_id: number;
  title_en: string;
  title_pt: string;
  body_en: string;
  body_pt: string;
  created_at: number;
  read_at: number | null;
};

type CentreRow = {
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

const other = (s: Suffix): Suffix => (s === 'en' ? 'pt' : 'en');

/**
 * The language an item is shown in: the request's when the item has a title in it, otherwise the
 * other one. Title, summary and body always come from the same language, never mixed.
 */
function shownIn(row: { title_en: string; title_pt: string }, lang: Lang): Suffix {
  const wanted: Suffix = lang === 'pt-BR' ? 'pt' : 'en';
  return row[`title_${wanted}`] ? wanted : other(wanted);
}

/** Language-neutral extras (source name, picture) may come from the other language when one is empty. */
const either = (row: Record<string, unknown>, field: string, s: Suffix) =>
  String(row[`${field}_${s}`] || row[`${field}_${other(s)}`] || '');

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The column list of an item's editable fields, in the order the statements below bind them. */
const FIELD_COLUMNS = [
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

function rejectIncomplete(issues: Record<string, ErrorCode>) {
  const first = Object.values(issues)[0];
  if (first) throw new AppError(first === 'field_required' ? 'validation_failed' : first, issues);
}

export class Content {
  readonly #db: Db;
  readonly #clock: Clock;
  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  // --- what customers read ----------------------------------------------------------------------

  async ads(lang: Lang): Promise<AdView[]> {
    const rows = await this.#published('ad', CONTENT_LIMITS.adsShown, 0);
    return rows.map((r) => {
      const s = shownIn(r, lang);
      return { id: r.id, title: r[`title_${s}`], image: either(r, 'image', s), link: r.link };
    });
  }

  async notices(lang: Lang, limit: number): Promise<NoticeView[]> {
    return (await this.#published('notice', limit, 0)).map((r) => this.#noticeView(r, lang));
  }

  async notice(lang: Lang, id: number): Promise<NoticeArticle> {
    const r = await this.#publishedOne('notice', id);
    return { ...this.#noticeView(r, lang), body: r[`body_${shownIn(r, lang)}`] };
  }

  async news(lang: Lang, page: number, limit: number): Promise<{ items: NewsView[]; total: number }> {
    const [count] = await this.#db.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM content_items WHERE kind = 'news' AND status = 'published'",
    );
    const rows = await this.#published('news', limit, (page - 1) * limit);
    return { items: rows.map((r) => this.#newsView(r, lang)), total: Number(count?.n ?? 0) };
  }

  async newsArticle(lang: Lang, id: number): Promise<NewsArticle> {
    const r = await this.#publishedOne('news', id);
    const s = shownIn(r, lang);
    return { ...this.#newsView(r, lang), body: r[`body_${s}`], image: either(r, 'image', s) };
  }

  /** The signed-in user's message centre: their personal messages and the published notices, newest first. */
  async messageCentre(
    userId: number,
    lang: Lang,
    q: { page: number; limit: number; kind?: MessageKind | undefined },
  ): Promise<MessageCentre> {
    const { sql, params } = centreSql(userId, q.kind);
    const [count] = await this.#db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM (${sql}) x`, params);
    const rows = await this.#db.query<CentreRow>(
      `SELECT * FROM (${sql}) x ORDER BY x.at DESC, x.kind, x.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, (q.page - 1) * q.limit],
    );
    return {
      items: rows.map((r) => centreView(r, lang)),
      total: Number(count?.n ?? 0),
      unread: await this.unread(userId),
    };
  }

  async messageInfo(userId: number, lang: Lang, kind: MessageKind, id: number): Promise<MessageView> {
    const { sql, params } = centreSql(userId, kind);
    const [row] = await this.#db.query<CentreRow>(`SELECT * FROM (${sql}) x WHERE x.id = $${params.length + 1}`, [
      ...params,
      id,
    ]);
    if (!row) throw new AppError('not_found');
    return centreView(row, lang);
  }

  async unread(userId: number): Promise<UnreadCounts> {
    const [messages] = await this.#db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM user_messages WHERE user_id = $1 AND read_at IS NULL',
      [userId],
    );
    const [notices] = await this.#db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM content_items c
       WHERE c.kind = 'notice' AND c.status = 'published'
         AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.item_id = c.id AND r.user_id = $1)`,
      [userId],
    );
    const message = Number(messages?.n ?? 0);
    const notice = Number(notices?.n ?? 0);
    return { total: message + notice, message, notice };
  }

  /** Marks one entry, or every entry, read for this user. Marking twice is harmless. */
  async markRead(
    userId: number,
    target: { all: boolean; kind?: MessageKind | undefined; id?: number | undefined },
  ): Promise<UnreadCounts> {
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      if (target.all) {
        await tx.run('UPDATE user_messages SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [userId, now]);
        await tx.run(
          `INSERT INTO notice_reads (user_id, item_id, read_at)
           SELECT CAST($1 AS BIGINT), c.id, CAST($2 AS BIGINT) FROM content_items c
           WHERE c.kind = 'notice' AND c.status = 'published'
             AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.item_id = c.id AND r.user_id = $1)`,
          [userId, now],
        );
        return;
      }
      if (target.kind === 'message') {
        const [row] = await tx.query<MessageRow>('SELECT * FROM user_messages WHERE id = $1 AND user_id = $2', [
          target.id!,
          userId,
        ]);
        // Another user's message is "not found", never "forbidden": its existence is not ours to tell.
        if (!row) throw new AppError('not_found');
        if (row.read_at === null) await tx.run('UPDATE user_messages SET read_at = $2 WHERE id = $1', [row.id, now]);
        return;
      }
      await publishedOne(tx, 'notice', target.id!);
      await tx.run(
        'INSERT INTO notice_reads (user_id, item_id, read_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, item_id) DO NOTHING',
        [userId, target.id!, now],
      );
    });
    return this.unread(userId);
  }

  // --- what staff write -------------------------------------------------------------------------

  async list(q: { page: number; limit: number; kind?: ContentKind | undefined; status?: ContentStatus | undefined }) {
    const where: string[] = [];
    const params: Param[] = [];
    if (q.kind) {
      params.push(q.kind);
      where.push(`c.kind = $${params.length}`);
    }
    if (q.status) {
      params.push(q.status);
      where.push(`c.status = $${params.length}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [count] = await this.#db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM content_items c ${clause}`, params);
    const rows = await this.#db.query<ContentRow & { author: string | null }>(
      `SELECT c.*, s.username AS author FROM content_items c LEFT JOIN staff s ON s.id = c.created_by ${clause}
       ORDER BY c.updated_at DESC, c.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, (q.page - 1) * q.limit],
    );
    return { items: rows.map(adminView), total: Number(count?.n ?? 0) };
  }

  async get(id: number): Promise<AdminContentView> {
    const [row] = await this.#db.query<ContentRow & { author: string | null }>(
      'SELECT c.*, s.username AS author FROM content_items c LEFT JOIN staff s ON s.id = c.created_by WHERE c.id = $1',
      [id],
    );
    if (!row) throw new AppError('not_found');
    return adminView(row);
  }

  async create(auth: StaffAuth, input: ContentFields & { kind: ContentKind; publish: boolean }) {
    rejectIncomplete(checkContent(input.kind, input));
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO content_items (kind, status, ${FIELD_COLUMNS.map(([, c]) => c).join(', ')},
           created_by, updated_by, created_at, updated_at, published_at)
         VALUES ($1, $2, ${FIELD_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')}, $14, $14, $15, $15, $16)
         RETURNING id`,
        [
          input.kind,
          input.publish ? 'published' : 'draft',
          ...FIELD_COLUMNS.map(([f]) => input[f]),
          auth.staff.id,
          now,
          input.publish ? now : null,
        ],
      );
      const created = row!.id;
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'content.created',
          targetType: 'content',
          targetId: String(created),
          reason: '',
          detail: { kind: input.kind, title: input.titleEn || input.titlePt, published: input.publish },
        },
        now,
      );
      return created;
    });
    return this.get(id);
  }

  /** Replaces an item's texts, pictures and link; a published item changes for customers at once. */
  async update(auth: StaffAuth, input: ContentFields & { id: number }) {
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<ContentRow>('SELECT * FROM content_items WHERE id = $1', [input.id]);
      if (!row) throw new AppError('not_found');
      rejectIncomplete(checkContent(row.kind, input));
      const changed = FIELD_COLUMNS.filter(([f, c]) => row[c] !== input[f]).map(([f]) => f);
      if (changed.length === 0) return;
      await tx.run(
        `UPDATE content_items SET ${FIELD_COLUMNS.map(([, c], i) => `${c} = $${i + 2}`).join(', ')},
           updated_by = $13, updated_at = $14 WHERE id = $1`,
        [input.id, ...FIELD_COLUMNS.map(([f]) => input[f]), auth.staff.id, now],
      );
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'content.updated',
          targetType: 'content',
          targetId: String(input.id),
          reason: '',
          detail: { kind: row.kind, status: row.status, changed },
        },
        now,
      );
    });
    return this.get(input.id);
  }

  /** Publishes a draft, or publishes an unpublished item again (it then counts as new: unread, on top). */
  async publish(auth: StaffAuth, id: number) {
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<ContentRow>('SELECT * FROM content_items WHERE id = $1', [id]);
      if (!row) throw new AppError('not_found');
      if (row.status === 'published') throw new AppError('content_already_published');
      rejectIncomplete(checkContent(row.kind, fieldsOf(row)));
      await tx.run(
        "UPDATE content_items SET status = 'published', published_at = $2, unpublished_at = NULL, updated_by = $3, updated_at = $2 WHERE id = $1",
        [id, now, auth.staff.id],
      );
      if (row.status === 'unpublished') await tx.run('DELETE FROM notice_reads WHERE item_id = $1', [id]);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'content.published',
          targetType: 'content',
          targetId: String(id),
          reason: '',
          detail: { kind: row.kind, from: row.status, title: row.title_en || row.title_pt },
        },
        now,
      );
    });
    return this.get(id);
  }

  /** Takes a published item off the app at once; it stays in the console, and can be published again. */
  async unpublish(auth: StaffAuth, id: number, reason: string) {
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const [row] = await tx.query<ContentRow>('SELECT * FROM content_items WHERE id = $1', [id]);
      if (!row) throw new AppError('not_found');
      if (row.status !== 'published') throw new AppError('content_not_published');
      await tx.run(
        "UPDATE content_items SET status = 'unpublished', unpublished_at = $2, updated_by = $3, updated_at = $2 WHERE id = $1",
        [id, now, auth.staff.id],
      );
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'content.unpublished',
          targetType: 'content',
          targetId: String(id),
          reason,
          detail: { kind: row.kind, title: row.title_en || row.title_pt },
        },
        now,
      );
    });
    return this.get(id);
  }

  async sendMessage(auth: StaffAuth, input: MessageSendBody) {
    rejectIncomplete(checkContent('message', input));
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      const [user] = await tx.query<{ id: number }>('SELECT id FROM users WHERE id = $1', [input.userId]);
      if (!user) throw new AppError('user_not_found', { userId: 'user_not_found' });
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO user_messages (user_id, title_en, title_pt, body_en, body_pt, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [input.userId, input.titleEn, input.titlePt, input.bodyEn, input.bodyPt, auth.staff.id, now],
      );
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'message.sent',
          targetType: 'user',
          targetId: String(input.userId),
          reason: '',
          detail: { messageId: row!.id, title: input.titleEn || input.titlePt },
        },
        now,
      );
      return row!.id;
    });
    return { id };
  }

  async sentMessages(q: { page: number; limit: number; userId?: number | undefined }) {
    const clause = q.userId ? 'WHERE m.user_id = $1' : '';
    const params: Param[] = q.userId ? [q.userId] : [];
    const [count] = await this.#db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM user_messages m ${clause}`, params);
    const rows = await this.#db.query<
      MessageRow & { area_code: string; national_number: string; sender: string | null }
    >(
      `SELECT m.*, u.area_code, u.national_number, s.username AS sender
       FROM user_messages m JOIN users u ON u.id = m.user_id LEFT JOIN staff s ON s.id = m.created_by ${clause}
       ORDER BY m.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, (q.page - 1) * q.limit],
    );
    const items: AdminMessageView[] = rows.map((m) => ({
      id: m.id,
      userId: m.user_id,
      account: `+${m.area_code} ${m.national_number}`,
      titleEn: m.title_en,
      titlePt: m.title_pt,
      bodyEn: m.body_en,
      bodyPt: m.body_pt,
      sentBy: m.sender,
      createdAt: iso(m.created_at)!,
      readAt: iso(m.read_at),
    }));
    return { items, total: Number(count?.n ?? 0) };
  }

  // --- seeding (paper mode) ---------------------------------------------------------------------

  /** Inserts a published item once per `seedKey`; later starts (or staff unpublishing it) leave it alone. */
  async seedItem(seedKey: string, kind: ContentKind, fields: Partial<ContentFields>, publishedAt: number) {
    const values = FIELD_COLUMNS.map(([f]) => fields[f] ?? '');
    await this.#db.run(
      `INSERT INTO content_items (kind, status, ${FIELD_COLUMNS.map(([, c]) => c).join(', ')},
         seed_key, created_at, updated_at, published_at)
       VALUES ($1, 'published', ${FIELD_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}, $13, $14, $14, $14)
       ON CONFLICT (seed_key) DO NOTHING`,
      [kind, ...values, seedKey, publishedAt],
    );
  }

  async seedMessage(
    seedKey: string,
    userId: number,
    fields: { titleEn: string; titlePt: string; bodyEn: string; bodyPt: string },
    at: number,
  ) {
    await this.#db.run(
      `INSERT INTO user_messages (user_id, title_en, title_pt, body_en, body_pt, seed_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (seed_key) DO NOTHING`,
      [userId, fields.titleEn, fields.titlePt, fields.bodyEn, fields.bodyPt, seedKey, at],
    );
  }

  // --- helpers ----------------------------------------------------------------------------------

  #published(kind: ContentKind, limit: number, offset: number) {
    return this.#db.query<ContentRow>(
      `SELECT * FROM content_items WHERE kind = $1 AND status = 'published'
       ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [kind, limit, offset],
    );
  }

  #publishedOne(kind: ContentKind, id: number) {
    return publishedOne(this.#db, kind, id);
  }

  #noticeView(r: ContentRow, lang: Lang): NoticeView {
    const s = shownIn(r, lang);
    return { id: r.id, title: r[`title_${s}`], summary: r[`summary_${s}`], at: Number(r.published_at) };
  }

  #newsView(r: ContentRow, lang: Lang): NewsView {
    const s = shownIn(r, lang);
    return {
      id: r.id,
      title: r[`title_${s}`],
      summary: r[`summary_${s}`],
      source: either(r, 'source', s),
      at: Number(r.published_at),
    };
  }
}

async function publishedOne(db: Sql, kind: ContentKind, id: number): Promise<ContentRow> {
  const [row] = await db.query<ContentRow>(
    "SELECT * FROM content_items WHERE id = $1 AND kind = $2 AND status = 'published'",
    [id, kind],
  );
  if (!row) throw new AppError('not_found');
  return row;
}

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

function centreView(r: CentreRow, lang: Lang): MessageView {
  const s = shownIn(r, lang);
  const body = r[`body_${s}`];
  // A personal message has no separate summary: its first line stands in for one.
  const summary = r[`summary_${s}`] || (body.split('\n')[0] ?? '').slice(0, 160);
  return {
    kind: r.kind,
    id: Number(r.id),
    title: r[`title_${s}`],
    summary,
    body,
    at: Number(r.at),
    isRead: Number(r.is_read) === 1,
  };
}

function fieldsOf(r: ContentRow): ContentFields {
  return Object.fromEntries(FIELD_COLUMNS.map(([f, c]) => [f, r[c]])) as ContentFields;
}

function adminView(r: ContentRow & { author: string | null }): AdminContentView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    ...fieldsOf(r),
    isSeeded: r.seed_key !== null,
    createdBy: r.author,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    publishedAt: iso(r.published_at),
    unpublishedAt: iso(r.unpublished_at),
  };
}
