// SQL of the support chat. Plain rows; the rules stay in service.ts. A function that must join a
// caller's transaction takes the transaction handle as `db`.

import type { ChatAuthor, ChatState } from '@bourse/contract';
import type { Param, Sql } from '@bourse/db';

export type ConversationRow = {
  id: number;
  user_id: number;
  state: ChatState;
  queue: string;
  assigned_staff_id: number | null;
  created_at: number;
  last_message_at: number;
};
export type MessageRow = {
  id: number;
  conversation_id: number;
  author: ChatAuthor;
  staff_id: number | null;
  staff_name: string | null;
  body: string;
  image_id: number | null;
  created_at: number;
  delivered_at: number | null;
};
export type SummaryRow = ConversationRow & {
  phone: string;
  staff_name: string | null;
  last_text: string | null;
  last_image: number | null;
  unread: number | string;
};

const CONVERSATION = 'id, user_id, state, queue, assigned_staff_id, created_at, last_message_at';
const num = <T extends { id: number }>(rows: T[]) => rows.map((r) => ({ ...r, id: Number(r.id) }));

export async function transitionAllowed(db: Sql, from: ChatState, to: ChatState): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 AS ok FROM chat_conversation_transitions WHERE from_state = $1 AND to_state = $2',
    [from, to],
  );
  return rows.length > 0;
}

/** The customer's conversation that is not closed, else their latest; null when they never wrote. */
export async function currentFor(db: Sql, userId: number): Promise<ConversationRow | null> {
  const rows = await db.query<ConversationRow>(
    `SELECT ${CONVERSATION} FROM chat_conversations WHERE user_id = $1
     ORDER BY CASE WHEN state = 'closed' THEN 1 ELSE 0 END, id DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ? normalize(rows[0]) : null;
}

export async function find(db: Sql, id: number): Promise<ConversationRow | null> {
  const rows = await db.query<ConversationRow>(`SELECT ${CONVERSATION} FROM chat_conversations WHERE id = $1`, [id]);
  return rows[0] ? normalize(rows[0]) : null;
}

function normalize(r: ConversationRow): ConversationRow {
  return {
    ...r,
    id: Number(r.id),
    user_id: Number(r.user_id),
    assigned_staff_id: r.assigned_staff_id === null ? null : Number(r.assigned_staff_id),
    created_at: Number(r.created_at),
    last_message_at: Number(r.last_message_at),
  };
}

export async function openConversation(db: Sql, userId: number, queue: string, now: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO chat_conversations (user_id, state, queue, created_at, last_message_at)
     VALUES ($1, 'open', $2, $3, $3) RETURNING id`,
    [userId, queue, now],
  );
  return Number(rows[0]!.id);
}

export async function setState(
  db: Sql,
  id: number,
  c: { from: ChatState; to: ChatState; staffId: number | null; now: number },
): Promise<boolean> {
  const closing = c.to === 'closed';
  const changed = await db.run(
    `UPDATE chat_conversations SET state = $1, assigned_staff_id = $2, closed_at = $3, closed_by = $4
     WHERE id = $5 AND state = $6`,
    [c.to, c.to === 'open' ? null : c.staffId, closing ? c.now : null, closing ? c.staffId : null, id, c.from],
  );
  return changed === 1;
}

export async function touch(db: Sql, id: number, now: number) {
  await db.run('UPDATE chat_conversations SET last_message_at = $1 WHERE id = $2', [now, id]);
}

/**
 * Touches a conversation only while it is not closed; whether it was. Inside a transaction this also takes
 * the row's lock (PostgreSQL), so a customer's concurrent sends line up behind each other and a close
 * racing a send is seen.
 */
export async function touchLive(db: Sql, id: number, now: number): Promise<boolean> {
  return (
    (await db.run("UPDATE chat_conversations SET last_message_at = $1 WHERE id = $2 AND state <> 'closed'", [
      now,
      id,
    ])) === 1
  );
}

export async function insertImage(db: Sql, i: { userId: number; conversationId: number; data: string; now: number }) {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO chat_images (user_id, conversation_id, data, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [i.userId, i.conversationId, i.data, i.now],
  );
  return Number(rows[0]!.id);
}

export async function image(db: Sql, id: number) {
  const rows = await db.query<{ user_id: number; data: string }>(
    'SELECT user_id, data FROM chat_images WHERE id = $1',
    [id],
  );
  return rows[0] ? { userId: Number(rows[0].user_id), data: rows[0].data } : null;
}

export async function insertMessage(
  db: Sql,
  m: {
    conversationId: number;
    author: ChatAuthor;
    staffId: number | null;
    sender: string;
    clientId: string;
    body: string;
    imageId: number | null;
    now: number;
  },
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO chat_messages (conversation_id, author, staff_id, sender, client_id, body, image_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [m.conversationId, m.author, m.staffId, m.sender, m.clientId, m.body, m.imageId, m.now],
  );
  return Number(rows[0]!.id);
}

export async function messageByClientId(db: Sql, sender: string, clientId: string) {
  const rows = await db.query<{ id: number; conversation_id: number; body: string; image_id: number | null }>(
    'SELECT id, conversation_id, body, image_id FROM chat_messages WHERE sender = $1 AND client_id = $2',
    [sender, clientId],
  );
  const row = rows[0];
  return row
    ? {
        id: Number(row.id),
        conversationId: Number(row.conversation_id),
        body: row.body,
        hasImage: row.image_id !== null,
      }
    : null;
}

/** How many messages a sender wrote since `since` (the customer's rate limit). */
export async function sentSince(db: Sql, sender: string, since: number): Promise<number> {
  const rows = await db.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM chat_messages WHERE sender = $1 AND created_at > $2',
    [sender, since],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A page of a conversation's messages, newest first (the caller reverses), `limit + 1` to tell if more exist. */
export async function messages(db: Sql, conversationId: number, before: number | undefined, limit: number) {
  const params: Param[] = [conversationId, limit + 1];
  if (before) params.push(before);
  const rows = await db.query<MessageRow>(
    `SELECT m.id, m.conversation_id, m.author, m.staff_id, s.username AS staff_name, m.body, m.image_id,
            m.created_at, m.delivered_at
     FROM chat_messages m LEFT JOIN staff s ON s.id = m.staff_id
     WHERE m.conversation_id = $1 ${before ? 'AND m.id < $3' : ''}
     ORDER BY m.id DESC LIMIT $2`,
    params,
  );
  return num(rows).map((r) => ({
    ...r,
    image_id: r.image_id === null ? null : Number(r.image_id),
    created_at: Number(r.created_at),
    delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
  }));
}

/** One message of a conversation, or null. */
export async function message(db: Sql, conversationId: number, id: number): Promise<MessageRow | null> {
  const rows = await messages(db, conversationId, id + 1, 0);
  return rows[0]?.id === id ? rows[0] : null;
}

/** Marks the messages `author` wrote in a conversation, up to `upTo`, delivered; how many changed. */
export async function markDelivered(db: Sql, conversationId: number, author: ChatAuthor, upTo: number, now: number) {
  return db.run(
    `UPDATE chat_messages SET delivered_at = $1
     WHERE conversation_id = $2 AND author = $3 AND id <= $4 AND delivered_at IS NULL`,
    [now, conversationId, author, upTo],
  );
}

export async function readCursor(db: Sql, conversationId: number, side: ChatAuthor): Promise<number> {
  const rows = await db.query<{ last_read_id: number }>(
    'SELECT last_read_id FROM chat_reads WHERE conversation_id = $1 AND side = $2',
    [conversationId, side],
  );
  return Number(rows[0]?.last_read_id ?? 0);
}

/**
 * Moves a side's read cursor forward (never back); whether it moved. One conditional statement each way, so
 * two reads at once neither collide on the first row nor move the cursor back.
 */
export async function advanceCursor(db: Sql, conversationId: number, side: ChatAuthor, upTo: number, now: number) {
  const inserted = await db.run(
    `INSERT INTO chat_reads (conversation_id, side, last_read_id, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (conversation_id, side) DO NOTHING`,
    [conversationId, side, upTo, now],
  );
  if (inserted > 0) return upTo > 0;
  const moved = await db.run(
    'UPDATE chat_reads SET last_read_id = $1, updated_at = $2 WHERE conversation_id = $3 AND side = $4 AND last_read_id < $1',
    [upTo, now, conversationId, side],
  );
  return moved > 0;
}

/** The newest message id in a conversation (0 when none). */
export async function lastMessageId(db: Sql, conversationId: number): Promise<number> {
  const rows = await db.query<{ id: number | null }>(
    'SELECT MAX(id) AS id FROM chat_messages WHERE conversation_id = $1',
    [conversationId],
  );
  return Number(rows[0]?.id ?? 0);
}

/** Messages `author` wrote in a conversation that the other side's cursor has not passed. */
export async function unread(db: Sql, conversationId: number, author: ChatAuthor, cursor: number): Promise<number> {
  const rows = await db.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM chat_messages WHERE conversation_id = $1 AND author = $2 AND id > $3',
    [conversationId, author, cursor],
  );
  return Number(rows[0]?.n ?? 0);
}

const SUMMARY = `
  SELECT c.id, c.user_id, c.state, c.queue, c.assigned_staff_id, c.created_at, c.last_message_at,
         u.phone, s.username AS staff_name,
         (SELECT m.body FROM chat_messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1) AS last_text,
         (SELECT m.image_id FROM chat_messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1) AS last_image,
         (SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = c.id AND m.author = 'customer'
            AND m.id > COALESCE((SELECT r.last_read_id FROM chat_reads r
                                 WHERE r.conversation_id = c.id AND r.side = 'staff'), 0)) AS unread
  FROM chat_conversations c
  JOIN users u ON u.id = c.user_id
  LEFT JOIN staff s ON s.id = c.assigned_staff_id`;

/** Conversations that are not closed, newest activity first; `assignedTo` narrows to one staff member's, `unassigned` to open ones. */
export async function summaries(db: Sql, filter: { unassigned?: boolean; assignedTo?: number }, limit: number) {
  const params: Param[] = [limit];
  let where = "c.state <> 'closed'";
  if (filter.unassigned) where = "c.state = 'open'";
  if (filter.assignedTo !== undefined) {
    where = "c.state = 'assigned' AND c.assigned_staff_id = $2";
    params.push(filter.assignedTo);
  }
  const rows = await db.query<SummaryRow>(`${SUMMARY} WHERE ${where} ORDER BY c.last_message_at DESC LIMIT $1`, params);
  return rows.map((r) => ({
    ...normalize(r),
    phone: r.phone,
    staff_name: r.staff_name,
    last_text: r.last_text,
    last_image: r.last_image,
    unread: Number(r.unread),
  }));
}

export async function summary(db: Sql, id: number) {
  const rows = await db.query<SummaryRow>(`${SUMMARY} WHERE c.id = $1`, [id]);
  const r = rows[0];
  return r
    ? {
        ...normalize(r),
        phone: r.phone,
        staff_name: r.staff_name,
        last_text: r.last_text,
        last_image: r.last_image,
        unread: Number(r.unread),
      }
    : null;
}
