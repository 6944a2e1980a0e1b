// Owns news, notices, ads and personal messages: what staff write (each write with its audit entry in
// the same transaction), what customers read (published items only, in their language) and who has
// read what. Must hold: a draft or unpublished item is never served to a customer; a customer only ever
// sees their own personal messages. Must not: touch balances or anything beyond its three tables.

import {
  type AdminContentPageView,
  type AdminContentView,
  type AdminMessageView,
  type AdView,
  CONTENT_LIMITS,
  CONTENT_PAGES,
  type ContentFields,
  type ContentKind,
  type ContentPageSlug,
  type ContentPageView,
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
import { PAGE_DEFAULTS } from './page-defaults.ts';
import * as repo from './repo.ts';
import { type CentreRow, type ContentRow, FIELD_COLUMNS } from './repo.ts';

type Suffix = 'en' | 'pt';

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
    const total = await repo.countPublishedNews(this.#db);
    const rows = await this.#published('news', limit, (page - 1) * limit);
    return { items: rows.map((r) => this.#newsView(r, lang)), total };
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
    const total = await repo.countCentre(this.#db, userId, q.kind);
    const rows = await repo.listCentre(this.#db, userId, q.kind, q.limit, (q.page - 1) * q.limit);
    return {
      items: rows.map((r) => centreView(r, lang)),
      total,
      unread: await this.unread(userId),
    };
  }

  async messageInfo(userId: number, lang: Lang, kind: MessageKind, id: number): Promise<MessageView> {
    const row = await repo.findCentreEntry(this.#db, userId, kind, id);
    if (!row) throw new AppError('not_found');
    return centreView(row, lang);
  }

  async unread(userId: number): Promise<UnreadCounts> {
    const message = await repo.countUnreadMessages(this.#db, userId);
    const notice = await repo.countUnreadNotices(this.#db, userId);
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
        await repo.markAllRead(tx, userId, now);
        return;
      }
      if (target.kind === 'message') {
        const row = await repo.findUserMessage(tx, target.id!, userId);
        // Another user's message is "not found", never "forbidden": its existence is not ours to tell.
        if (!row) throw new AppError('not_found');
        if (row.read_at === null) await repo.markMessageRead(tx, row.id, now);
        return;
      }
      await publishedOne(tx, 'notice', target.id!);
      await repo.markNoticeRead(tx, userId, target.id!, now);
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
    const total = await repo.countItems(this.#db, clause, params);
    const rows = await repo.listItemsWithAuthor(this.#db, clause, params, q.limit, (q.page - 1) * q.limit);
    return { items: rows.map(adminView), total };
  }

  async get(id: number): Promise<AdminContentView> {
    const row = await repo.findItemWithAuthor(this.#db, id);
    if (!row) throw new AppError('not_found');
    return adminView(row);
  }

  async create(auth: StaffAuth, input: ContentFields & { kind: ContentKind; publish: boolean }) {
    rejectIncomplete(checkContent(input.kind, input));
    const now = this.#clock.now();
    const id = await this.#db.transaction(async (tx) => {
      const created = await repo.insertItem(tx, {
        kind: input.kind,
        status: input.publish ? 'published' : 'draft',
        fields: input,
        staffId: auth.staff.id,
        now,
        publishedAt: input.publish ? now : null,
      });
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
      const row = await repo.findItem(tx, input.id);
      if (!row) throw new AppError('not_found');
      rejectIncomplete(checkContent(row.kind, input));
      const changed = FIELD_COLUMNS.filter(([f, c]) => row[c] !== input[f]).map(([f]) => f);
      if (changed.length === 0) return;
      await repo.updateItemFields(tx, input.id, input, auth.staff.id, now);
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
      const row = await repo.findItem(tx, id);
      if (!row) throw new AppError('not_found');
      if (row.status === 'published') throw new AppError('content_already_published');
      rejectIncomplete(checkContent(row.kind, fieldsOf(row)));
      await repo.setPublished(tx, id, auth.staff.id, now);
      if (row.status === 'unpublished') await repo.deleteNoticeReads(tx, id);
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
      const row = await repo.findItem(tx, id);
      if (!row) throw new AppError('not_found');
      if (row.status !== 'published') throw new AppError('content_not_published');
      await repo.setUnpublished(tx, id, auth.staff.id, now);
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
      if (!(await repo.userExists(tx, input.userId)))
        throw new AppError('user_not_found', { userId: 'user_not_found' });
      const messageId = await repo.insertMessage(tx, {
        userId: input.userId,
        titleEn: input.titleEn,
        titlePt: input.titlePt,
        bodyEn: input.bodyEn,
        bodyPt: input.bodyPt,
        staffId: auth.staff.id,
        now,
      });
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'message.sent',
          targetType: 'user',
          targetId: String(input.userId),
          reason: '',
          detail: { messageId, title: input.titleEn || input.titlePt },
        },
        now,
      );
      return messageId;
    });
    return { id };
  }

  async sentMessages(q: { page: number; limit: number; userId?: number | undefined }) {
    const total = await repo.countSentMessages(this.#db, q.userId);
    const rows = await repo.listSentMessages(this.#db, q.userId, q.limit, (q.page - 1) * q.limit);
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
    return { items, total };
  }

  // --- pages of fixed text (company introduction, loan service) ----------------------------------

  /** A page in the request's language: the staff's text once saved, the default text before. */
  async page(slug: ContentPageSlug, lang: Lang): Promise<ContentPageView> {
    const p = await this.#page(slug);
    const s: Suffix = lang === 'pt-BR' ? 'pt' : 'en';
    const pick = (field: 'title' | 'body') => p[`${field}${s === 'pt' ? 'Pt' : 'En'}`];
    return { slug, title: pick('title'), body: pick('body'), updatedAt: p.updatedAt };
  }

  async pages(): Promise<AdminContentPageView[]> {
    return Promise.all(CONTENT_PAGES.map((slug) => this.#page(slug)));
  }

  /** Replaces a page's texts in both languages; audited with the fields that changed. */
  async setPage(
    auth: StaffAuth,
    input: { slug: ContentPageSlug; titleEn: string; titlePt: string; bodyEn: string; bodyPt: string },
  ): Promise<AdminContentPageView> {
    const now = this.#clock.now();
    await this.#db.transaction(async (tx) => {
      const before = await this.#page(input.slug, tx);
      const changed = (['titleEn', 'titlePt', 'bodyEn', 'bodyPt'] as const).filter((f) => before[f] !== input[f]);
      if (changed.length === 0) return;
      await repo.savePage(tx, input, auth.staff.id, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'content.page_updated',
          targetType: 'content_page',
          targetId: input.slug,
          reason: '',
          detail: { changed },
        },
        now,
      );
    });
    return this.#page(input.slug);
  }

  async #page(slug: ContentPageSlug, db: Sql = this.#db): Promise<AdminContentPageView> {
    const row = await repo.findPage(db, slug);
    if (!row) return { slug, ...PAGE_DEFAULTS[slug], updatedBy: null, updatedAt: null };
    return {
      slug,
      titleEn: row.title_en,
      titlePt: row.title_pt,
      bodyEn: row.body_en,
      bodyPt: row.body_pt,
      updatedBy: row.author,
      updatedAt: iso(row.updated_at),
    };
  }

  // --- seeding (paper mode) ---------------------------------------------------------------------

  /** Inserts a published item once per `seedKey`; later starts (or staff unpublishing it) leave it alone. */
  async seedItem(seedKey: string, kind: ContentKind, fields: Partial<ContentFields>, publishedAt: number) {
    await repo.seedItem(this.#db, seedKey, kind, fields, publishedAt);
  }

  async seedMessage(
    seedKey: string,
    userId: number,
    fields: { titleEn: string; titlePt: string; bodyEn: string; bodyPt: string },
    at: number,
  ) {
    await repo.seedMessage(this.#db, seedKey, userId, fields, at);
  }

  // --- helpers ----------------------------------------------------------------------------------

  #published(kind: ContentKind, limit: number, offset: number) {
    return repo.listPublished(this.#db, kind, limit, offset);
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
  const row = await repo.findPublished(db, kind, id);
  if (!row) throw new AppError('not_found');
  return row;
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
