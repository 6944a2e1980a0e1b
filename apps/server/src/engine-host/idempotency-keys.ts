// Owns the durable record of idempotency keys: (scope, user, key) → the command's body and outcome, kept
// for KEY_TTL_MS whatever the load (the engine's window forgets an id after 100,000 other commands).
// Must hold: a record is written in the same transaction as its command's journal line and read-model
// rows (projectKeys, called by the projection), so a key answered to a client is never lost by a crash;
// a repeat (the engine's window answering) writes nothing. Must not: decide anything itself; the
// feature reads the record before sending a command (findKeyed) and the engine's window still catches
// retries that race the first commit.

import type { Db, Param, Sql } from '@bourse/db';
import { type ApplyResult, type Command, canonicalJson } from '@bourse/engine';

/** How long a key is honoured at least (payment APIs keep theirs this long); pruneKeys deletes older ones. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** The marker between user and key in a keyed command id: a generated id never carries it. */
const KEYED = ':key:';

/**
 * The engine command id of a client's keyed request: `<scope>:<user>:key:<key>` (scope and user have
 * no colon). The engine's window and this record both know the command by it.
 */
export function keyedCommandId(scope: string, userId: string | number, key: string): string {
  return `${scope}:${userId}${KEYED}${key}`;
}

/** Whether a command id is a keyed one (keyedCommandId's form). */
export function isKeyedCommandId(id: string): boolean {
  const first = id.indexOf(':');
  if (first <= 0) return false;
  const marker = id.indexOf(KEYED, first + 1);
  return marker > first + 1 && id.indexOf(':', first + 1) === marker;
}

/** What the engine compares for a repeated id: the command without the sequencer's time. */
export function commandBody(command: object): string {
  return canonicalJson({ ...(command as Record<string, unknown>), timeMs: 0 });
}

/** A keyed command's outcome as first answered: its order (if it placed one) or its rejection code. */
export type KeyedOutcome = { ok: true; orderId: number | null } | { ok: false; code: string };

/** The row projectKeys writes for a keyed command applied for the first time; none for others. */
export function keyRow(command: Command, result: ApplyResult): Param[] | undefined {
  if (!isKeyedCommandId(command.id)) return undefined;
  let orderId: number | null = null;
  if (result.ok) {
    const first = result.events[0];
    if (first?.type === 'order_placed') orderId = first.orderId;
  }
  return [command.id, commandBody(command), orderId, result.ok ? '' : result.code, command.timeMs];
}

/** Writes the rows of keyRow(), inside the batch's transaction. */
export async function projectKeys(tx: Sql, rows: readonly Param[][]): Promise<void> {
  for (const row of rows) {
    await tx.run(
      `INSERT INTO idempotency_keys (command_id, body, order_id, outcome, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (command_id) DO NOTHING`,
      row,
    );
  }
}

/**
 * The outcome recorded for `command` (a keyed one), undefined if its key is not recorded, or
 * 'reused' when the key was recorded with another body.
 */
export async function findKeyed(
  db: Sql,
  command: object & { id: string },
): Promise<KeyedOutcome | 'reused' | undefined> {
  const [row] = await db.query<{ body: string; order_id: unknown; outcome: string }>(
    'SELECT body, order_id, outcome FROM idempotency_keys WHERE command_id = $1',
    [command.id],
  );
  if (!row) return undefined;
  if (row.body !== commandBody(command)) return 'reused';
  if (row.outcome !== '') return { ok: false, code: row.outcome };
  return { ok: true, orderId: row.order_id === null ? null : Number(row.order_id) };
}

/** Deletes the keys recorded before `now - KEY_TTL_MS`; answers how many. */
export function pruneKeys(db: Db, now: number): Promise<number> {
  return db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [now - KEY_TTL_MS]);
}
