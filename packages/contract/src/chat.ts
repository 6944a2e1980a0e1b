// Shapes of the built-in support chat (SPEC user/service, common/service; decision 0041). A customer has
// at most one conversation that is not closed; it moves open → assigned → closed (assigned → open when
// the staff member releases it). Messages travel over HTTP (idempotent by the client's message id); the
// stream's `chat:<session token>` and `chat-staff:<staff session token>` channels only nudge a refetch
// (and carry typing). Delivery: a message is delivered once the other side has fetched it, read once
// the other side's read cursor has passed it.

import { z } from 'zod';
import { isPlainText, recordId } from './fields.ts';
import { actionReason } from './staff.ts';

export const CHAT_STATES = ['open', 'assigned', 'closed'] as const;
export type ChatState = (typeof CHAT_STATES)[number];
export const CHAT_AUTHORS = ['customer', 'staff'] as const;
export type ChatAuthor = (typeof CHAT_AUTHORS)[number];

/** Longest message text, in characters. */
export const CHAT_MAX_TEXT = 2000;
/** A customer may send at most this many messages per CHAT_RATE_WINDOW_MS. */
export const CHAT_RATE_LIMIT = 20;
export const CHAT_RATE_WINDOW_MS = 60_000;
/** Messages per history page. */
export const CHAT_PAGE = 50;

/** A message body: text and/or an image (base64 or a data: URL, checked and re-encoded like KYC photos). */
export const chatMessageBody = z.object({
  // Length is checked by the service (chat_message_too_long), so the customer sees what went wrong.
  text: z
    .string({ error: 'field_invalid' })
    .max(20_000, { error: 'field_invalid' })
    .refine(isPlainText, { error: 'field_invalid' })
    .optional()
    .default(''),
  image: z.string({ error: 'field_invalid' }).max(8_000_000, { error: 'field_invalid' }).optional(),
  /** The client's own id for this message: sending it again returns the stored message, never a second one. */
  clientId: z.string({ error: 'field_required' }).regex(/^[\w-]{8,64}$/, { error: 'field_invalid' }),
});
export type ChatMessageBody = z.input<typeof chatMessageBody>;

export const chatHistoryQuery = z.object({
  /** Messages older than this id (the previous page); the newest page without it. */
  before: recordId().optional(),
});
export const chatReadBody = z.object({ upTo: recordId() });

export const chatMessage = z.object({
  id: z.number().int(),
  author: z.enum(CHAT_AUTHORS),
  /** The staff member's username on a staff message (shown in the console only; the app says "Support"). */
  staffName: z.string().nullable(),
  text: z.string(),
  /** Id of an attached image, served by GET …/chat/image/:id. */
  imageId: z.number().int().nullable(),
  createdAt: z.number(),
  /** The other side has fetched it. */
  delivered: z.boolean(),
  /** The other side's read cursor has passed it. */
  read: z.boolean(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const chatConversation = z.object({
  id: z.number().int(),
  state: z.enum(CHAT_STATES),
  queue: z.string(),
  createdAt: z.number(),
});

/** The customer's chat: the conversation that is not closed (else the last one, or none), a page of history. */
export const chatView = z.object({
  conversation: chatConversation.nullable(),
  messages: z.array(chatMessage),
  /** Older messages exist: ask with before = the first message's id. */
  more: z.boolean(),
  /** Staff messages the customer has not read. */
  unread: z.number().int(),
});
export type ChatView = z.infer<typeof chatView>;

export const chatUnreadView = z.object({ unread: z.number().int() });

// --- staff ---------------------------------------------------------------------------------------

export const CHAT_QUEUES = ['unassigned', 'mine', 'open'] as const;
export type ChatQueue = (typeof CHAT_QUEUES)[number];
export const staffChatListQuery = z.object({ queue: z.enum(CHAT_QUEUES).default('open') });

export const staffChatSummary = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  customer: z.string(),
  state: z.enum(CHAT_STATES),
  queue: z.string(),
  assignedStaffId: z.number().int().nullable(),
  assignedStaffName: z.string().nullable(),
  lastText: z.string(),
  lastAt: z.number(),
  /** Customer messages no staff member has read. */
  unread: z.number().int(),
});
export type StaffChatSummary = z.infer<typeof staffChatSummary>;

export const staffChatList = z.object({
  items: z.array(staffChatSummary),
  /** Unread customer messages per queue, for the desk's badges. */
  unread: z.object({ unassigned: z.number().int(), mine: z.number().int(), open: z.number().int() }),
});
export type StaffChatList = z.infer<typeof staffChatList>;

export const staffChatView = z.object({
  conversation: staffChatSummary,
  messages: z.array(chatMessage),
  more: z.boolean(),
});
export type StaffChatView = z.infer<typeof staffChatView>;

export const staffChatReplyBody = z.object({
  text: z
    .string({ error: 'field_invalid' })
    .max(20_000, { error: 'field_invalid' })
    .refine(isPlainText, { error: 'field_invalid' }),
  clientId: z.string({ error: 'field_required' }).regex(/^[\w-]{8,64}$/, { error: 'field_invalid' }),
});
export type StaffChatReplyBody = z.input<typeof staffChatReplyBody>;

/** What the stream's chat channels carry: a nudge to refetch, or the other side typing. */
export type ChatStreamEvent =
  | { kind: 'message' | 'read' | 'state'; conversationId: number }
  | { kind: 'typing'; conversationId: number; from: ChatAuthor };

export const staffChatCloseBody = z.object({ reason: actionReason() });
export const staffChatReadBody = z.object({ upTo: recordId() });
