// Shapes of news, notices, ads and the message centre (SPEC §7: /index/ads, /index/notice, /index/news,
// /index/news/info, /user/notice, /user/notice/read) and of the staff calls that write them. Every item
// is stored in both languages and served in the request's language, falling back to the other one.
// checkContent() is the one rule set for what a complete item is; the server runs it on every write.

import { z } from 'zod';
import type { ErrorCode } from './errors.ts';
import { isPlainText, pageQuery, recordId, wholeNumber } from './fields.ts';
import { actionReason } from './staff.ts';

export const CONTENT_KINDS = ['ad', 'notice', 'news'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const CONTENT_STATUSES = ['draft', 'published', 'unpublished'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];
/** What the message centre lists: personal messages to one user, and platform announcements (notices). */
export const MESSAGE_KINDS = ['message', 'notice'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Limits on everything the content calls store or return. */
export const CONTENT_LIMITS = {
  titleChars: 200,
  summaryChars: 500,
  bodyChars: 20_000,
  sourceChars: 80,
  /** An inline image (data: URL) of about 150 KB; larger pictures belong on a static path. */
  imageChars: 200_000,
  linkChars: 500,
  adsShown: 10,
  noticesShownMax: 20,
  newsPageMax: 50,
  messagesPageMax: 50,
} as const;

// --- what customers read -------------------------------------------------------------------------

const id = z.number().int();
const at = z.number().int();

export const adView = z.object({ id, title: z.string(), image: z.string(), link: z.string() });
export type AdView = z.infer<typeof adView>;

export const noticeView = z.object({ id, title: z.string(), summary: z.string(), at });
export type NoticeView = z.infer<typeof noticeView>;
export const noticeArticle = noticeView.extend({ body: z.string() });
export type NoticeArticle = z.infer<typeof noticeArticle>;

export const newsView = z.object({ id, title: z.string(), summary: z.string(), source: z.string(), at });
export type NewsView = z.infer<typeof newsView>;
export const newsArticle = newsView.extend({ body: z.string(), image: z.string() });
export type NewsArticle = z.infer<typeof newsArticle>;

/** One entry of the message centre; `kind` + `id` identify it (the two kinds have separate ids). */
export const messageView = z.object({
  kind: z.enum(MESSAGE_KINDS),
  id,
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  at,
  isRead: z.boolean(),
});
export type MessageView = z.infer<typeof messageView>;

export const unreadCounts = z.object({ total: z.number().int(), message: z.number().int(), notice: z.number().int() });
export type UnreadCounts = z.infer<typeof unreadCounts>;

export const messageCentre = z.object({ items: z.array(messageView), total: z.number().int(), unread: unreadCounts });
export type MessageCentre = z.infer<typeof messageCentre>;

/** What marking entries read answers: the unread counts after it. */
export const messageReadResult = z.object({ unread: unreadCounts });
export type MessageReadResult = z.infer<typeof messageReadResult>;

// --- customer queries ----------------------------------------------------------------------------

export const idQuery = z.object({ id: recordId() });
export const noticeListQuery = z.object({
  limit: wholeNumber(1, CONTENT_LIMITS.noticesShownMax).default(10),
});
export const newsQuery = pageQuery.extend({
  limit: wholeNumber(1, CONTENT_LIMITS.newsPageMax).default(20),
});
export const messageCentreQuery = pageQuery.extend({
  limit: wholeNumber(1, CONTENT_LIMITS.messagesPageMax).default(20),
  kind: z.enum(MESSAGE_KINDS, { error: 'field_invalid' }).optional(),
});
export const messageInfoQuery = z.object({
  kind: z.enum(MESSAGE_KINDS, { error: 'field_invalid' }).default('notice'),
  id: recordId(),
});

/** A checkbox or flag as forms and JSON send it; anything else is refused, not read as "no". */
const flag = () =>
  z
    .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'on', 'off'])], { error: 'field_invalid' })
    .optional()
    .transform((v) => v === true || v === '1' || v === 'true' || v === 'on');

/** Marks one entry read (`kind` + `id`), or every entry (`all`). */
export const messageReadBody = z
  .object({
    all: flag(),
    kind: z.enum(MESSAGE_KINDS, { error: 'field_invalid' }).optional(),
    id: recordId().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.all) return;
    if (!value.kind) ctx.addIssue({ code: 'custom', path: ['kind'], message: 'field_required' });
    if (!value.id) ctx.addIssue({ code: 'custom', path: ['id'], message: 'field_required' });
  });

// --- what staff write ----------------------------------------------------------------------------

const optional = (max: number) =>
  z
    .string({ error: 'field_invalid' })
    .trim()
    .max(max, { error: 'text_too_long' })
    .refine(isPlainText, { error: 'field_invalid' })
    .optional()
    .transform((v) => v ?? '');

/**
 * An inline picture (data:image/…) or a path on this site: the app's CSP loads nothing else. A path
 * has no backslash or white space: browsers read "/\\host" and "/<tab>/host" as "//host", another site.
 */
const IMAGE_PATTERN = /^(data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]|\/(?![/\\])[^\s\\]*$)/;
const image = () =>
  optional(CONTENT_LIMITS.imageChars).refine((v) => v === '' || IMAGE_PATTERN.test(v), {
    error: 'content_image_invalid',
  });

/**
 * An app page (/pages/…, never climbing out of it with "..", which URL parsers also read in "%2e%2e",
 * ".%2e" and "%2e.") or an https:// address: never javascript: or another scheme.
 */
const LINK_PATTERN = /^(\/pages\/(?!.*(?:\.|%2[eE])(?:\.|%2[eE]))[\w/?=&%.-]*|https:\/\/[^\s"'<>]+)$/;
const link = () =>
  optional(CONTENT_LIMITS.linkChars).refine((v) => v === '' || LINK_PATTERN.test(v), {
    error: 'content_link_invalid',
  });

const translatedFields = {
  titleEn: optional(CONTENT_LIMITS.titleChars),
  titlePt: optional(CONTENT_LIMITS.titleChars),
  summaryEn: optional(CONTENT_LIMITS.summaryChars),
  summaryPt: optional(CONTENT_LIMITS.summaryChars),
  bodyEn: optional(CONTENT_LIMITS.bodyChars),
  bodyPt: optional(CONTENT_LIMITS.bodyChars),
  sourceEn: optional(CONTENT_LIMITS.sourceChars),
  sourcePt: optional(CONTENT_LIMITS.sourceChars),
  imageEn: image(),
  imagePt: image(),
  link: link(),
};

export const contentFields = z.object(translatedFields);
export type ContentFields = z.output<typeof contentFields>;

export const contentCreateBody = contentFields.extend({
  kind: z.enum(CONTENT_KINDS, { error: (issue) => (issue.input === undefined ? 'field_required' : 'field_invalid') }),
  /** Publish at once instead of keeping a draft. */
  publish: flag(),
});
export const contentUpdateBody = contentFields.extend({ id: recordId() });
export const contentIdBody = z.object({ id: recordId() });

export const contentUnpublishBody = z.object({ id: recordId(), reason: actionReason() });

export const contentListQuery = pageQuery.extend({
  kind: z.enum(CONTENT_KINDS, { error: 'field_invalid' }).optional(),
  status: z.enum(CONTENT_STATUSES, { error: 'field_invalid' }).optional(),
});

export const messageSendBody = z.object({
  userId: recordId(),
  titleEn: optional(CONTENT_LIMITS.titleChars),
  titlePt: optional(CONTENT_LIMITS.titleChars),
  bodyEn: optional(CONTENT_LIMITS.bodyChars),
  bodyPt: optional(CONTENT_LIMITS.bodyChars),
});
export type MessageSendBody = z.output<typeof messageSendBody>;

export const sentMessagesQuery = pageQuery.extend({ userId: recordId().optional() });

/** An item as the staff console sees it: both languages, its state and who wrote it. Times are ISO. */
export const adminContentView = z.object({
  id,
  kind: z.enum(CONTENT_KINDS),
  status: z.enum(CONTENT_STATUSES),
  titleEn: z.string(),
  titlePt: z.string(),
  summaryEn: z.string(),
  summaryPt: z.string(),
  bodyEn: z.string(),
  bodyPt: z.string(),
  sourceEn: z.string(),
  sourcePt: z.string(),
  imageEn: z.string(),
  imagePt: z.string(),
  link: z.string(),
  isSeeded: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
  unpublishedAt: z.string().nullable(),
});
export type AdminContentView = z.infer<typeof adminContentView>;

export const adminMessageView = z.object({
  id,
  userId: id,
  account: z.string(),
  titleEn: z.string(),
  titlePt: z.string(),
  bodyEn: z.string(),
  bodyPt: z.string(),
  sentBy: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type AdminMessageView = z.infer<typeof adminMessageView>;

/** What sending a personal message answers: the new message's id. */
export const messageSentView = z.object({ id });
export type MessageSentView = z.infer<typeof messageSentView>;

// --- what the app sends (before the server's parsing) ---------------------------------------------

export type IdInput = z.input<typeof idQuery>;
export type NoticeListInput = z.input<typeof noticeListQuery>;
export type NewsQueryInput = z.input<typeof newsQuery>;
export type MessageCentreInput = z.input<typeof messageCentreQuery>;
export type MessageInfoInput = z.input<typeof messageInfoQuery>;
export type MessageReadInput = z.input<typeof messageReadBody>;

// --- what the console sends (before the server's parsing: ids as numbers or digits) ---------------

export type ContentListInput = z.input<typeof contentListQuery>;
export type ContentCreateInput = z.input<typeof contentCreateBody>;
export type ContentUpdateInput = z.input<typeof contentUpdateBody>;
export type ContentIdInput = z.input<typeof contentIdBody>;
export type ContentUnpublishInput = z.input<typeof contentUnpublishBody>;
export type MessageSendInput = z.input<typeof messageSendBody>;
export type SentMessagesQueryInput = z.input<typeof sentMessagesQuery>;

type Translated = {
  titleEn: string;
  titlePt: string;
  bodyEn: string;
  bodyPt: string;
  summaryEn?: string;
  summaryPt?: string;
};

/**
 * What is missing for an item of `kind` to be complete, as field → code (empty when complete):
 * a title in at least one language; no summary or body without its title; a body for each language
 * of a news article or a personal message; an image for an ad.
 */
export function checkContent(
  kind: ContentKind | 'message',
  f: Translated & { imageEn?: string; imagePt?: string },
): Record<string, ErrorCode> {
  const issues: Record<string, ErrorCode> = {};
  if (!f.titleEn && !f.titlePt) issues.titleEn = 'content_title_required';
  for (const [suffix, title, body, summary] of [
    ['En', f.titleEn, f.bodyEn, f.summaryEn],
    ['Pt', f.titlePt, f.bodyPt, f.summaryPt],
  ] as const) {
    if (!title && (body || summary) && !issues.titleEn) issues[`title${suffix}`] = 'field_required';
    if (title && !body && (kind === 'news' || kind === 'message')) issues[`body${suffix}`] = 'field_required';
  }
  if (kind === 'ad' && !f.imageEn && !f.imagePt) issues.imageEn = 'field_required';
  return issues;
}

// --- pages of fixed text that staff edit (SPEC common/companyIntroduction, common/loanService) ------

/** The app's pages whose text staff write in the console; each always exists (a default until edited). */
export const CONTENT_PAGES = ['companyIntroduction', 'loanService'] as const;
export type ContentPageSlug = (typeof CONTENT_PAGES)[number];

const pageSlug = z.enum(CONTENT_PAGES, {
  error: (issue) => (issue.input === undefined || issue.input === '' ? 'field_required' : 'not_found'),
});
export const contentPageQuery = z.object({ slug: pageSlug });

/** A page as customers read it, in the request's language (the other one when it has no text). */
export const contentPageView = z.object({
  slug: z.enum(CONTENT_PAGES),
  title: z.string(),
  body: z.string(),
  /** ISO time of the last edit by staff, or null while the page shows its default text. */
  updatedAt: z.string().nullable(),
});
export type ContentPageView = z.infer<typeof contentPageView>;

export const adminContentPageView = z.object({
  slug: z.enum(CONTENT_PAGES),
  titleEn: z.string(),
  titlePt: z.string(),
  bodyEn: z.string(),
  bodyPt: z.string(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type AdminContentPageView = z.infer<typeof adminContentPageView>;

const required = (max: number) => optional(max).refine((v) => v !== '', { error: 'field_required' });
/** Both languages are required: a page is reached from the app's menus in either. */
export const contentPageSetBody = z.object({
  slug: pageSlug,
  titleEn: required(CONTENT_LIMITS.titleChars),
  titlePt: required(CONTENT_LIMITS.titleChars),
  bodyEn: required(CONTENT_LIMITS.bodyChars),
  bodyPt: required(CONTENT_LIMITS.bodyChars),
});
export type ContentPageSetInput = z.input<typeof contentPageSetBody>;
