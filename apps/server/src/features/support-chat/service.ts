// Owns the support chat (decision 0041): a customer's conversation with the support desk, its life
// cycle open → assigned → closed (assigned → open on release) checked against
// chat_conversation_transitions, messages with an optional image, delivery and read state.
// Must hold: a customer has at most one conversation that is not closed (writing after a close opens a
// new one); a message sent twice with the same client id is stored once; a customer sees only their own
// conversation, messages and images (anything else answers chat_not_found); only the staff member a
// conversation is assigned to replies to it, releases it or closes it (an open one is taken by the first
// reply); every staff change of state, and every reply, is audited in the same transaction.
// Images are checked and re-encoded exactly as KYC photos (kyc/images.ts), before anything is written.
// Listeners (the stream) hear *that* a conversation changed, never its content.

import {
  CHAT_MAX_TEXT,
  CHAT_PAGE,
  CHAT_RATE_LIMIT,
  CHAT_RATE_WINDOW_MS,
  type ChatAuthor,
  type ChatMessage,
  type ChatMessageBody,
  type ChatQueue,
  type ChatState,
  type ChatStreamEvent,
  type ChatView,
  type StaffChatList,
  type StaffChatReplyBody,
  type StaffChatSummary,
  type StaffChatView,
} from '@bourse/contract';
import type { Db, Sql } from '@bourse/db';
import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { cleanPhoto } from '../kyc/images.ts';
import { appendAudit } from '../staff/audit.ts';
import type { StaffAuth } from '../staff/service.ts';
import * as repo from './repo.ts';

/** Who a chat event concerns: the customer (their own channels) and the desk (every staff channel). */
export type ChatNotice = { userId: number; event: ChatStreamEvent };

const other = (side: ChatAuthor): ChatAuthor => (side === 'customer' ? 'staff' : 'customer');

export class SupportChat {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #listeners = new Set<(notice: ChatNotice) => void>();

  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  onNotice(listener: (notice: ChatNotice) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(userId: number, event: ChatStreamEvent) {
    for (const listener of this.#listeners) listener({ userId, event });
  }

  // --- customer ---------------------------------------------------------------------------------

  async view(userId: number, before?: number): Promise<ChatView> {
    const c = await repo.currentFor(this.#db, userId);
    if (!c) return { conversation: null, messages: [], more: false, unread: 0 };
    const page = await this.#page(c.id, 'customer', before);
    return {
      conversation: { id: c.id, state: c.state, queue: c.queue, createdAt: c.created_at },
      ...page,
      unread: await repo.unread(this.#db, c.id, 'staff', await repo.readCursor(this.#db, c.id, 'customer')),
    };
  }

  async unread(userId: number): Promise<number> {
    const c = await repo.currentFor(this.#db, userId);
    return c ? repo.unread(this.#db, c.id, 'staff', await repo.readCursor(this.#db, c.id, 'customer')) : 0;
  }

  async send(userId: number, queue: string, body: ChatMessageBody): Promise<ChatMessage> {
    const text = (body.text ?? '').trim();
    const sender = `customer:${userId}`;
    /** A resend answers the first message; the same client id with another message is refused. */
    const first = async () => {
      const again = await repo.messageByClientId(this.#db, sender, body.clientId);
      if (!again) return null;
      if (again.body !== text || again.hasImage !== Boolean(body.image)) throw new AppError('idempotency_key_reused');
      return this.#message(again.conversationId, again.id, 'customer');
    };
    const resent = await first();
    if (resent) return resent;
    if (!text && !body.image) throw new AppError('chat_message_empty');
    if (text.length > CHAT_MAX_TEXT) throw new AppError('chat_message_too_long');
    const now = this.#clock.now();
    // A cheap early answer; the binding count is inside the write, under the conversation's lock.
    if ((await repo.sentSince(this.#db, sender, now - CHAT_RATE_WINDOW_MS)) >= CHAT_RATE_LIMIT)
      throw new AppError('chat_rate_limited');
    // Checked and re-encoded before anything is written, so a refused image changes nothing.
    const image = body.image
      ? (await cleanPhoto(body.image, { tooLarge: 'chat_image_too_large', type: 'chat_image_type' })).toString('base64')
      : null;
    const write = () =>
      this.#db.transaction(async (tx) => {
        // The live conversation, locked by touching it (a close that won the race is seen: a new one opens).
        const live = await repo.currentFor(tx, userId);
        const conversationId =
          live && live.state !== 'closed' && (await repo.touchLive(tx, live.id, now))
            ? live.id
            : await repo.openConversation(tx, userId, queue, now);
        // Counted after the lock, so concurrent sends cannot all pass the limit.
        if ((await repo.sentSince(tx, sender, now - CHAT_RATE_WINDOW_MS)) >= CHAT_RATE_LIMIT)
          throw new AppError('chat_rate_limited');
        const imageId = image ? await repo.insertImage(tx, { userId, conversationId, data: image, now }) : null;
        const id = await repo.insertMessage(tx, {
          conversationId,
          author: 'customer',
          staffId: null,
          sender,
          clientId: body.clientId,
          body: text,
          imageId,
          now,
        });
        await repo.touch(tx, conversationId, now);
        return { id, conversationId };
      });
    let written: { id: number; conversationId: number };
    try {
      written = await write();
    } catch (error) {
      // A resend racing the first (the client id's unique index), or a second conversation racing the
      // first one's opening (the one-live index): the first write stands; answer with it, or write again.
      if (error instanceof AppError) throw error;
      const raced = await first();
      if (raced) return raced;
      written = await write();
    }
    this.#notify(userId, { kind: 'message', conversationId: written.conversationId });
    return this.#message(written.conversationId, written.id, 'customer');
  }

  /** Moves the customer's read cursor up to `upTo` (at most their conversation's newest message). */
  async read(userId: number, upTo: number): Promise<number> {
    const c = await repo.currentFor(this.#db, userId);
    if (!c) throw new AppError('chat_not_found');
    if (await this.#advance(c.id, 'customer', upTo)) this.#notify(userId, { kind: 'read', conversationId: c.id });
    return this.unread(userId);
  }

  /** An image for its owner (userId) or for staff (null); anyone else's answers not found. */
  async image(id: number, userId: number | null): Promise<Buffer> {
    const row = await repo.image(this.#db, id);
    if (!row || (userId !== null && row.userId !== userId)) throw new AppError('chat_not_found');
    return Buffer.from(row.data, 'base64');
  }

  /** The customer is typing: the desk is told (no check beyond the signed-in channel the stream holds). */
  async customerTyping(userId: number) {
    const c = await repo.currentFor(this.#db, userId);
    if (c && c.state !== 'closed') this.#notify(userId, { kind: 'typing', conversationId: c.id, from: 'customer' });
  }

  // --- staff ------------------------------------------------------------------------------------

  async list(staffId: number, queue: ChatQueue): Promise<StaffChatList> {
    const filters = { unassigned: { unassigned: true }, mine: { assignedTo: staffId }, open: {} } as const;
    const [items, unassigned, mine, open] = await Promise.all([
      repo.summaries(this.#db, filters[queue], 200),
      repo.summaries(this.#db, filters.unassigned, 200),
      repo.summaries(this.#db, filters.mine, 200),
      repo.summaries(this.#db, filters.open, 200),
    ]);
    const total = (rows: { unread: number }[]) => rows.reduce((sum, r) => sum + r.unread, 0);
    return {
      items: items.map(toSummary),
      unread: { unassigned: total(unassigned), mine: total(mine), open: total(open) },
    };
  }

  async conversation(id: number, before?: number): Promise<StaffChatView> {
    const row = await repo.summary(this.#db, id);
    if (!row) throw new AppError('chat_not_found');
    const page = await this.#page(id, 'staff', before);
    return { conversation: toSummary(row), ...page };
  }

  async staffRead(id: number, upTo: number): Promise<StaffChatView> {
    const c = await repo.find(this.#db, id);
    if (!c) throw new AppError('chat_not_found');
    if (await this.#advance(id, 'staff', upTo)) this.#notify(c.user_id, { kind: 'read', conversationId: id });
    return this.conversation(id);
  }

  async assign(auth: StaffAuth, id: number): Promise<StaffChatView> {
    const me = auth.staff.id;
    const userId = await this.#db.transaction(async (tx) => {
      const c = await this.#live(tx, id);
      if (c.state === 'assigned') {
        if (c.assigned_staff_id === me) return null;
        throw new AppError('chat_assigned_elsewhere');
      }
      await this.#move(tx, auth, c, 'assigned', 'chat.assign', 'taken from the queue');
      return c.user_id;
    });
    if (userId !== null) this.#notify(userId, { kind: 'state', conversationId: id });
    return this.conversation(id);
  }

  async release(auth: StaffAuth, id: number): Promise<StaffChatView> {
    const userId = await this.#db.transaction(async (tx) => {
      const c = await this.#live(tx, id);
      if (c.state !== 'assigned' || c.assigned_staff_id !== auth.staff.id)
        throw new AppError('chat_not_assigned_to_you');
      await this.#move(tx, auth, c, 'open', 'chat.release', 'back to the queue');
      return c.user_id;
    });
    this.#notify(userId, { kind: 'state', conversationId: id });
    return this.conversation(id);
  }

  async close(auth: StaffAuth, id: number, reason: string): Promise<StaffChatView> {
    const userId = await this.#db.transaction(async (tx) => {
      const c = await this.#live(tx, id);
      if (c.state === 'assigned' && c.assigned_staff_id !== auth.staff.id)
        throw new AppError('chat_assigned_elsewhere');
      await this.#move(tx, auth, c, 'closed', 'chat.close', reason);
      return c.user_id;
    });
    this.#notify(userId, { kind: 'state', conversationId: id });
    return this.conversation(id);
  }

  /** A staff reply; an open conversation is taken by whoever answers it first. */
  async reply(auth: StaffAuth, id: number, body: StaffChatReplyBody): Promise<StaffChatView> {
    const text = body.text.trim();
    const sender = `staff:${auth.staff.id}`;
    const again = await repo.messageByClientId(this.#db, sender, body.clientId);
    if (again) {
      if (again.conversationId !== id) throw new AppError('chat_not_found');
      if (again.body !== text) throw new AppError('idempotency_key_reused');
      return this.conversation(id);
    }
    if (!text) throw new AppError('chat_message_empty');
    if (text.length > CHAT_MAX_TEXT) throw new AppError('chat_message_too_long');
    const now = this.#clock.now();
    const userId = await this.#db.transaction(async (tx) => {
      const c = await this.#live(tx, id);
      if (c.state === 'assigned' && c.assigned_staff_id !== auth.staff.id)
        throw new AppError('chat_assigned_elsewhere');
      if (c.state === 'open') await this.#move(tx, auth, c, 'assigned', 'chat.assign', 'answered from the queue');
      const messageId = await repo.insertMessage(tx, {
        conversationId: id,
        author: 'staff',
        staffId: auth.staff.id,
        sender,
        clientId: body.clientId,
        body: text,
        imageId: null,
        now,
      });
      await repo.touch(tx, id, now);
      // Answering reads what the customer wrote before it.
      await repo.advanceCursor(tx, id, 'staff', messageId, now);
      await appendAudit(
        tx,
        {
          staffId: auth.staff.id,
          action: 'chat.reply',
          targetType: 'chat_conversation',
          targetId: String(id),
          reason: 'reply to the customer',
          detail: { messageId, userId: c.user_id },
        },
        now,
      );
      return c.user_id;
    });
    this.#notify(userId, { kind: 'message', conversationId: id });
    return this.conversation(id);
  }

  /** A staff member is typing in a conversation: its customer is told. */
  async staffTyping(id: number) {
    const c = await repo.find(this.#db, id);
    if (c && c.state !== 'closed') this.#notify(c.user_id, { kind: 'typing', conversationId: id, from: 'staff' });
  }

  // --- shared -----------------------------------------------------------------------------------

  async #live(tx: Sql, id: number) {
    const c = await repo.find(tx, id);
    if (!c) throw new AppError('chat_not_found');
    if (c.state === 'closed') throw new AppError('chat_closed');
    return c;
  }

  async #move(tx: Sql, auth: StaffAuth, c: repo.ConversationRow, to: ChatState, action: string, reason: string) {
    if (!(await repo.transitionAllowed(tx, c.state, to))) throw new AppError('chat_closed');
    const now = this.#clock.now();
    // The state in the WHERE clause: a concurrent change makes this one miss, and it is refused.
    if (!(await repo.setState(tx, c.id, { from: c.state, to, staffId: auth.staff.id, now })))
      throw new AppError('chat_assigned_elsewhere');
    await appendAudit(
      tx,
      {
        staffId: auth.staff.id,
        action,
        targetType: 'chat_conversation',
        targetId: String(c.id),
        reason,
        detail: { userId: c.user_id, from: c.state, to },
      },
      now,
    );
  }

  async #advance(conversationId: number, side: ChatAuthor, upTo: number): Promise<boolean> {
    const newest = await repo.lastMessageId(this.#db, conversationId);
    return repo.advanceCursor(this.#db, conversationId, side, Math.min(upTo, newest), this.#clock.now());
  }

  /** A page of history as `reader` sees it; fetching it delivers the other side's messages in it. */
  async #page(conversationId: number, reader: ChatAuthor, before?: number) {
    const rows = await repo.messages(this.#db, conversationId, before, CHAT_PAGE);
    const more = rows.length > CHAT_PAGE;
    const page = rows.slice(0, CHAT_PAGE).reverse();
    const newestOther = page.filter((m) => m.author !== reader).at(-1);
    if (newestOther && newestOther.delivered_at === null) {
      const now = this.#clock.now();
      await repo.markDelivered(this.#db, conversationId, other(reader), newestOther.id, now);
      for (const m of page) if (m.author !== reader && m.delivered_at === null) m.delivered_at = now;
      const c = await repo.find(this.#db, conversationId);
      if (c) this.#notify(c.user_id, { kind: 'read', conversationId });
    }
    const cursors = {
      customer: await repo.readCursor(this.#db, conversationId, 'customer'),
      staff: await repo.readCursor(this.#db, conversationId, 'staff'),
    };
    return { messages: page.map((m) => toMessage(m, cursors, reader)), more };
  }

  async #message(conversationId: number, id: number, reader: ChatAuthor): Promise<ChatMessage> {
    const row = await repo.message(this.#db, conversationId, id);
    if (!row) throw new AppError('chat_not_found');
    const cursors = {
      customer: await repo.readCursor(this.#db, conversationId, 'customer'),
      staff: await repo.readCursor(this.#db, conversationId, 'staff'),
    };
    return toMessage(row, cursors, reader);
  }
}

function toMessage(m: repo.MessageRow, cursors: Record<ChatAuthor, number>, reader: ChatAuthor): ChatMessage {
  return {
    id: m.id,
    author: m.author,
    // The customer sees "Support", not who answered.
    staffName: reader === 'staff' ? m.staff_name : null,
    text: m.body,
    imageId: m.image_id,
    createdAt: m.created_at,
    delivered: m.delivered_at !== null,
    read: cursors[other(m.author)] >= m.id,
  };
}

function toSummary(r: NonNullable<Awaited<ReturnType<typeof repo.summary>>>): StaffChatSummary {
  return {
    id: r.id,
    userId: r.user_id,
    customer: r.phone,
    state: r.state,
    queue: r.queue,
    assignedStaffId: r.assigned_staff_id,
    assignedStaffName: r.staff_name,
    lastText: r.last_text ?? '',
    lastAt: r.last_message_at,
    unread: r.unread,
  };
}
