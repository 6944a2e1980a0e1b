// SQL for block offers, bids and HNI marks (migration 28). Plain rows; the rules live in service.ts.

import type { BlockBidStatus, BlockOfferStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type OfferRow = {
  id: number;
  instrument_id: string;
  quantity: bigint;
  lot: bigint;
  price_ticks: number;
  reference_ticks: number;
  band_bps: number;
  seller: string;
  opens_at: number;
  closes_at: number;
  unlocks_at: number;
  status: BlockOfferStatus;
  created_by: number;
  created_by_name: string;
  created_at: number;
  create_reason: string;
  decided_by: number | null;
  decided_by_name: string | null;
  decided_at: number | null;
  decision_reason: string;
  settled_at: number | null;
};

export type BidStatus = BlockBidStatus | 'new';
export type BidRow = {
  id: number;
  offer_id: number;
  user_id: number;
  quantity: bigint;
  amount_minor: bigint;
  status: BidStatus;
  allotted: bigint;
  paid_minor: bigint;
  created_at: number;
  updated_at: number;
  unlocked_at: number | null;
  client_key: string | null;
};

// A decision by staff id 0 is the system's (paper mode's demo offers): named 'system'.
const OFFER_SELECT = `SELECT o.*, c.username AS created_by_name,
    CASE WHEN o.decided_by = 0 THEN 'system' ELSE d.username END AS decided_by_name
  FROM block_offers o JOIN staff c ON c.id = o.created_by LEFT JOIN staff d ON d.id = o.decided_by`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function offerRow(r: OfferRow): OfferRow {
  return {
    ...r,
    id: Number(r.id),
    quantity: BigInt(r.quantity),
    lot: BigInt(r.lot),
    price_ticks: Number(r.price_ticks),
    reference_ticks: Number(r.reference_ticks),
    band_bps: Number(r.band_bps),
    opens_at: Number(r.opens_at),
    closes_at: Number(r.closes_at),
    unlocks_at: Number(r.unlocks_at),
    created_by: Number(r.created_by),
    created_at: Number(r.created_at),
    decided_by: num(r.decided_by),
    decided_at: num(r.decided_at),
    settled_at: num(r.settled_at),
  };
}

function bidRow(r: BidRow): BidRow {
  return {
    ...r,
    id: Number(r.id),
    offer_id: Number(r.offer_id),
    user_id: Number(r.user_id),
    quantity: BigInt(r.quantity),
    amount_minor: BigInt(r.amount_minor),
    allotted: BigInt(r.allotted),
    paid_minor: BigInt(r.paid_minor),
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
    unlocked_at: num(r.unlocked_at),
  };
}

export async function insertOffer(
  db: Sql,
  o: Omit<
    OfferRow,
    | 'id'
    | 'status'
    | 'created_by_name'
    | 'decided_by'
    | 'decided_by_name'
    | 'decided_at'
    | 'decision_reason'
    | 'settled_at'
  >,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO block_offers (instrument_id, quantity, lot, price_ticks, reference_ticks, band_bps, seller, opens_at,
       closes_at, unlocks_at, status, created_by, created_at, create_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending_approval', $11, $12, $13) RETURNING id`,
    [
      o.instrument_id,
      o.quantity,
      o.lot,
      o.price_ticks,
      o.reference_ticks,
      o.band_bps,
      o.seller,
      o.opens_at,
      o.closes_at,
      o.unlocks_at,
      o.created_by,
      o.created_at,
      o.create_reason,
    ],
  );
  return Number(rows[0]?.id);
}

export async function findOffer(db: Sql, id: number): Promise<OfferRow | undefined> {
  const rows = await db.query<OfferRow>(`${OFFER_SELECT} WHERE o.id = $1`, [id]);
  return rows[0] && offerRow(rows[0]);
}

/** Every offer, newest first (the console). */
export async function listOffers(db: Sql, limit: number): Promise<OfferRow[]> {
  return (await db.query<OfferRow>(`${OFFER_SELECT} ORDER BY o.id DESC LIMIT $1`, [limit])).map(offerRow);
}

/** Published and settled offers, the coming and open first (the customer's list). */
export async function listPublicOffers(db: Sql, limit: number): Promise<OfferRow[]> {
  const rows = await db.query<OfferRow>(
    `${OFFER_SELECT} WHERE o.status IN ('published', 'settled') ORDER BY o.closes_at DESC, o.id DESC LIMIT $1`,
    [limit],
  );
  return rows.map(offerRow);
}

/** Published offers whose window has closed (to allot). */
export async function offersToSettle(db: Sql, now: number): Promise<OfferRow[]> {
  const rows = await db.query<OfferRow>(
    `${OFFER_SELECT} WHERE o.status = 'published' AND o.closes_at <= $1 ORDER BY o.closes_at, o.id`,
    [now],
  );
  return rows.map(offerRow);
}

export async function transitionAllowed(
  db: Sql,
  table: 'block_offer_transitions' | 'block_bid_transitions',
  from: string,
  to: string,
): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM ${table} WHERE from_status = $1 AND to_status = $2`, [from, to]);
  return rows.length > 0;
}

/** Moves an offer from `from` to `to` (false when it was no longer in `from`). */
export async function moveOffer(
  db: Sql,
  id: number,
  from: BlockOfferStatus,
  to: BlockOfferStatus,
  set: { decidedBy?: number; at: number; reason?: string },
): Promise<boolean> {
  if (!(await transitionAllowed(db, 'block_offer_transitions', from, to))) return false;
  const changed =
    to === 'settled'
      ? await db.run(`UPDATE block_offers SET status = $3, settled_at = $4 WHERE id = $1 AND status = $2`, [
          id,
          from,
          to,
          set.at,
        ])
      : await db.run(
          `UPDATE block_offers SET status = $3, decided_by = $4, decided_at = $5, decision_reason = $6
           WHERE id = $1 AND status = $2`,
          [id, from, to, set.decidedBy ?? null, set.at, set.reason ?? ''],
        );
  return changed > 0;
}

/**
 * A new bid, only while its offer is published and open at `at` (undefined otherwise): a bid checked just
 * before the close must not land on an offer the job has already allotted.
 */
export async function insertBid(
  db: Sql,
  b: { offerId: number; userId: number; quantity: bigint; amountMinor: bigint; at: number; clientKey?: string },
): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO block_bids (offer_id, user_id, quantity, amount_minor, status, created_at, updated_at, client_key)
     SELECT o.id, CAST($2 AS BIGINT), CAST($3 AS BIGINT), CAST($4 AS BIGINT), 'new', CAST($5 AS BIGINT),
       CAST($5 AS BIGINT), CAST($6 AS TEXT)
     FROM block_offers o WHERE o.id = $1 AND o.status = 'published' AND o.closes_at > $5 RETURNING id`,
    [b.offerId, b.userId, b.quantity, b.amountMinor, b.at, b.clientKey ?? null],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].id);
}

/** A customer's bid by the idempotency key it was placed with (in any state, 'new' included). */
export async function findBidByKey(db: Sql, userId: number, clientKey: string): Promise<BidRow | undefined> {
  const rows = await db.query<BidRow>('SELECT * FROM block_bids WHERE user_id = $1 AND client_key = $2', [
    userId,
    clientKey,
  ]);
  return rows[0] && bidRow(rows[0]);
}

/** Forgets a bid whose hold the engine refused (nothing was held: nothing to keep). */
export async function deleteNewBid(db: Sql, id: number): Promise<void> {
  await db.run(`DELETE FROM block_bids WHERE id = $1 AND status = 'new'`, [id]);
}

/** A customer's bid (undefined for another customer's or one not yet held). */
export async function findBid(db: Sql, userId: number, id: number): Promise<BidRow | undefined> {
  const rows = await db.query<BidRow>(`SELECT * FROM block_bids WHERE id = $1 AND user_id = $2 AND status <> 'new'`, [
    id,
    userId,
  ]);
  return rows[0] && bidRow(rows[0]);
}

export async function listUserBids(
  db: Sql,
  userId: number,
  limit: number,
  offset: number,
): Promise<{ rows: BidRow[]; total: number }> {
  const rows = await db.query<BidRow>(
    `SELECT * FROM block_bids WHERE user_id = $1 AND status <> 'new' ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  const total = await db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM block_bids WHERE user_id = $1 AND status <> 'new'`,
    [userId],
  );
  return { rows: rows.map(bidRow), total: Number(total[0]?.n ?? 0) };
}

export async function listUserOfferBids(db: Sql, userId: number, offerId: number): Promise<BidRow[]> {
  const rows = await db.query<BidRow>(
    `SELECT * FROM block_bids WHERE user_id = $1 AND offer_id = $2 AND status <> 'new' ORDER BY id DESC`,
    [userId, offerId],
  );
  return rows.map(bidRow);
}

/** An offer's bids in arrival order (`status` one of them, or every held one). */
export async function listOfferBids(db: Sql, offerId: number, status?: BidStatus): Promise<BidRow[]> {
  const rows =
    status === undefined
      ? await db.query<BidRow>(`SELECT * FROM block_bids WHERE offer_id = $1 AND status <> 'new' ORDER BY id`, [
          offerId,
        ])
      : await db.query<BidRow>(`SELECT * FROM block_bids WHERE offer_id = $1 AND status = $2 ORDER BY id`, [
          offerId,
          status,
        ]);
  return rows.map(bidRow);
}

/** Bids left as 'new' by a crash between their insert and their hold (start-up). */
export async function listNewBids(db: Sql): Promise<BidRow[]> {
  return (await db.query<BidRow>(`SELECT * FROM block_bids WHERE status = 'new' ORDER BY id`)).map(bidRow);
}

/** Moves a bid from `from` to `to` with its allotment (false when it was no longer in `from`). */
export async function moveBid(
  db: Sql,
  id: number,
  from: BidStatus,
  to: BidStatus,
  at: number,
  allotment?: { allotted: bigint; paidMinor: bigint },
): Promise<boolean> {
  if (!(await transitionAllowed(db, 'block_bid_transitions', from, to))) return false;
  const changed = await db.run(
    `UPDATE block_bids SET status = $3, updated_at = $4, allotted = $5, paid_minor = $6 WHERE id = $1 AND status = $2`,
    [id, from, to, at, allotment?.allotted ?? 0n, allotment?.paidMinor ?? 0n],
  );
  return changed > 0;
}

/** Bids still 'applied' on a settled offer (placed at the close, after its allotment): to release. */
export async function lateBids(db: Sql): Promise<BidRow[]> {
  const rows = await db.query<BidRow>(
    `SELECT b.* FROM block_bids b JOIN block_offers o ON o.id = b.offer_id
     WHERE o.status = 'settled' AND b.status = 'applied' ORDER BY b.id`,
  );
  return rows.map(bidRow);
}

/** Allotted bids whose shares are still locked, of offers whose settlement day has begun. */
export async function bidsToUnlock(db: Sql, now: number): Promise<BidRow[]> {
  const rows = await db.query<BidRow>(
    `SELECT b.* FROM block_bids b JOIN block_offers o ON o.id = b.offer_id
     WHERE o.status = 'settled' AND o.unlocks_at <= $1 AND b.allotted > 0 AND b.unlocked_at IS NULL ORDER BY b.id`,
    [now],
  );
  return rows.map(bidRow);
}

export async function markUnlocked(db: Sql, id: number, at: number): Promise<void> {
  await db.run(`UPDATE block_bids SET unlocked_at = $2 WHERE id = $1 AND unlocked_at IS NULL`, [id, at]);
}

export async function isMarkedHni(db: Sql, userId: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM block_hni WHERE user_id = $1', [userId])).length > 0;
}

export async function markHni(db: Sql, m: { userId: number; staffId: number; at: number; reason: string }) {
  await db.run(
    `INSERT INTO block_hni (user_id, marked_by, marked_at, reason) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET marked_by = $2, marked_at = $3, reason = $4`,
    [m.userId, m.staffId, m.at, m.reason],
  );
}

export async function countOffers(db: Sql): Promise<number> {
  return Number((await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM block_offers'))[0]?.n ?? 0);
}

export async function userExists(db: Sql, userId: number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM users WHERE id = $1', [userId])).length > 0;
}
