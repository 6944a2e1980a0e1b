// SQL of the robots line: robot_templates and robot_runs with their transition tables, each run's move
// in robot_run_history, and the capital put in (robot_capital). Plain rows, one dialect for both databases; the rules live in service.ts.

import type { RobotRunStatus, RobotTemplateStatus } from '@bourse/contract';
import type { Sql } from '@bourse/db';

export type TemplateRow = {
  id: number;
  name: string;
  instrument_id: string;
  strategy: 'grid' | 'dca' | 'trend';
  params: string;
  level: number;
  period_days: number;
  min_minor: bigint;
  max_minor: bigint;
  profit_ratio_pct: number;
  status: RobotTemplateStatus;
  note: string;
  demo: boolean;
  replaces_id: number | null;
  created_by: number;
  approved_by: number | null;
  review_reason: string;
  created_at: number;
  updated_at: number;
};

export type RunRow = {
  id: number;
  user_id: number;
  template_id: number;
  name: string;
  instrument_id: string;
  strategy: 'grid' | 'dca' | 'trend';
  params: string;
  level: number;
  period_days: number;
  min_minor: bigint;
  max_minor: bigint;
  profit_ratio_pct: number;
  /** Capital moved in (the high-water mark); only a moved capital row counts. */
  capital_minor: bigint;
  /** Capital rows written but not yet moved: reserved against the single limit, not counted as capital. */
  pending_minor: bigint;
  client_key: string | null;
  seed: number;
  memo: string;
  last_tick: number;
  status: RobotRunStatus;
  end_reason: '' | 'customer' | 'period_end';
  final_minor: bigint | null;
  fee_minor: bigint | null;
  returned_minor: bigint | null;
  started_at: number;
  ends_at: number;
  ended_at: number | null;
  updated_at: number;
  /** The run's fills folded so far (trade id order): the last trade id, position, cost, realized, fees, count. */
  pnl_cursor: bigint;
  pnl_lots: bigint;
  pnl_cost: bigint;
  pnl_realized: bigint;
  pnl_fees: bigint;
  pnl_trades: number;
};

export type CapitalStatus = 'pending' | 'moved' | 'refused';
export type CapitalRow = {
  id: number;
  run_id: number;
  user_id: number;
  instrument_id: string;
  amount: bigint;
  status: CapitalStatus;
};

const big = (v: unknown) => BigInt(String(v));
const bigOrNull = (v: unknown) => (v === null || v === undefined ? null : big(v));
const num = (v: unknown) => Number(v);

function template(r: Record<string, unknown>): TemplateRow {
  return {
    ...(r as TemplateRow),
    id: num(r.id),
    level: num(r.level),
    period_days: num(r.period_days),
    min_minor: big(r.min_minor),
    max_minor: big(r.max_minor),
    profit_ratio_pct: num(r.profit_ratio_pct),
    demo: num(r.demo) === 1,
    replaces_id: r.replaces_id === null || r.replaces_id === undefined ? null : num(r.replaces_id),
    created_by: num(r.created_by),
    approved_by: r.approved_by === null ? null : num(r.approved_by),
    created_at: num(r.created_at),
    updated_at: num(r.updated_at),
  };
}

function run(r: Record<string, unknown>): RunRow {
  return {
    ...(r as RunRow),
    id: num(r.id),
    user_id: num(r.user_id),
    template_id: num(r.template_id),
    level: num(r.level),
    period_days: num(r.period_days),
    min_minor: big(r.min_minor),
    max_minor: big(r.max_minor),
    profit_ratio_pct: num(r.profit_ratio_pct),
    capital_minor: big(r.capital_minor),
    pending_minor: big(r.pending_minor ?? 0),
    client_key: (r.client_key as string | null | undefined) ?? null,
    seed: num(r.seed),
    last_tick: num(r.last_tick),
    final_minor: bigOrNull(r.final_minor),
    fee_minor: bigOrNull(r.fee_minor),
    returned_minor: bigOrNull(r.returned_minor),
    started_at: num(r.started_at),
    ends_at: num(r.ends_at),
    ended_at: r.ended_at === null ? null : num(r.ended_at),
    updated_at: num(r.updated_at),
    pnl_cursor: big(r.pnl_cursor ?? 0),
    pnl_lots: big(r.pnl_lots ?? 0),
    pnl_cost: big(r.pnl_cost ?? 0),
    pnl_realized: big(r.pnl_realized ?? 0),
    pnl_fees: big(r.pnl_fees ?? 0),
    pnl_trades: num(r.pnl_trades ?? 0),
  };
}

// --- templates ---------------------------------------------------------------------------------------

export type NewTemplate = Omit<
  TemplateRow,
  'id' | 'status' | 'approved_by' | 'review_reason' | 'created_at' | 'updated_at'
>;

export async function insertTemplate(db: Sql, t: NewTemplate, at: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO robot_templates (name, instrument_id, strategy, params, level, period_days, min_minor, max_minor,
       profit_ratio_pct, status, note, demo, replaces_id, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending_approval', $10, $11, $12, $13, $14, $14) RETURNING id`,
    [
      t.name,
      t.instrument_id,
      t.strategy,
      t.params,
      t.level,
      t.period_days,
      t.min_minor.toString(),
      t.max_minor.toString(),
      t.profit_ratio_pct,
      t.note,
      t.demo ? 1 : 0,
      t.replaces_id,
      t.created_by,
      at,
    ],
  );
  return Number(rows[0]?.id);
}

export async function findTemplate(db: Sql, id: number): Promise<TemplateRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM robot_templates WHERE id = $1', [id]);
  return rows[0] ? template(rows[0]) : undefined;
}

export async function listTemplates(db: Sql, statuses?: readonly RobotTemplateStatus[]): Promise<TemplateRow[]> {
  const rows = statuses
    ? await db.query<Record<string, unknown>>(
        `SELECT * FROM robot_templates WHERE status IN (${statuses.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY id`,
        [...statuses],
      )
    : await db.query<Record<string, unknown>>('SELECT * FROM robot_templates ORDER BY id DESC');
  return rows.map(template);
}

/** Demo templates seeded so far, on crypto pairs (`CRYPTO:…`) or on stocks (every other instrument). */
export async function countDemoTemplates(db: Sql, market: 'crypto' | 'stock'): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT COUNT(*) AS n FROM robot_templates WHERE demo = 1 AND instrument_id ${market === 'crypto' ? '' : 'NOT '}LIKE 'CRYPTO:%'`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function moveTemplate(
  db: Sql,
  id: number,
  from: RobotTemplateStatus,
  to: RobotTemplateStatus,
  at: number,
  set: { approved_by?: number; review_reason?: string } = {},
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM robot_template_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  if (allowed.length === 0) throw new Error(`robot template ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE robot_templates SET status = $1, updated_at = $2, approved_by = COALESCE($3, approved_by),
       review_reason = COALESCE($4, review_reason) WHERE id = $5 AND status = $6`,
    [to, at, set.approved_by ?? null, set.review_reason ?? null, id, from],
  );
  return changed > 0;
}

export async function templateRunCounts(db: Sql): Promise<Map<number, { runs: number; running: number }>> {
  const rows = await db.query<{ template_id: number; runs: number; running: number }>(
    `SELECT template_id, COUNT(*) AS runs,
       SUM(CASE WHEN status IN ('starting', 'running', 'stopping') THEN 1 ELSE 0 END) AS running
     FROM robot_runs GROUP BY template_id`,
  );
  return new Map(rows.map((r) => [Number(r.template_id), { runs: Number(r.runs), running: Number(r.running) }]));
}

/** Finished or stopped runs of a template: capital in and money returned (the realized history). */
export async function realizedOf(
  db: Sql,
  templateId: number,
): Promise<{ runs: number; capital: bigint; returned: bigint; from: number; to: number; runMs: number }> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT COUNT(*) AS runs, COALESCE(SUM(capital_minor), 0) AS capital, COALESCE(SUM(returned_minor), 0) AS returned,
       COALESCE(MIN(started_at), 0) AS first, COALESCE(MAX(ended_at), 0) AS last,
       COALESCE(SUM(ended_at - started_at), 0) AS run_ms
     FROM robot_runs WHERE template_id = $1 AND status IN ('stopped', 'finished')`,
    [templateId],
  );
  const r = rows[0] ?? {};
  return {
    runs: Number(r.runs ?? 0),
    capital: big(r.capital ?? 0),
    returned: big(r.returned ?? 0),
    from: Number(r.first ?? 0),
    to: Number(r.last ?? 0),
    runMs: Number(r.run_ms ?? 0),
  };
}

// --- runs --------------------------------------------------------------------------------------------

export type NewRun = Pick<
  RunRow,
  | 'user_id'
  | 'template_id'
  | 'name'
  | 'instrument_id'
  | 'strategy'
  | 'params'
  | 'level'
  | 'period_days'
  | 'min_minor'
  | 'max_minor'
  | 'profit_ratio_pct'
  | 'client_key'
  | 'seed'
  | 'started_at'
  | 'ends_at'
>;

/**
 * A new run in `starting` with its first capital row, pending (capital 0, the amount reserved until the
 * row is moved); answers both ids.
 */
export async function insertRun(db: Sql, r: NewRun, amount: bigint): Promise<{ runId: number; capitalId: number }> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO robot_runs (user_id, template_id, name, instrument_id, strategy, params, level, period_days,
       min_minor, max_minor, profit_ratio_pct, capital_minor, pending_minor, client_key, seed, status, started_at,
       ends_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, $13, $16, 'starting', $14, $15, $14) RETURNING id`,
    [
      r.user_id,
      r.template_id,
      r.name,
      r.instrument_id,
      r.strategy,
      r.params,
      r.level,
      r.period_days,
      r.min_minor.toString(),
      r.max_minor.toString(),
      r.profit_ratio_pct,
      amount.toString(),
      r.client_key,
      r.started_at,
      r.ends_at,
      r.seed,
    ],
  );
  const runId = Number(rows[0]?.id);
  await addHistory(db, runId, 'new', 'starting', r.started_at, 'customer', '');
  const capitalId = await insertCapital(db, runId, amount, r.started_at, null);
  return { runId, capitalId };
}

/** A capital row, pending until its money has moved (the caller reserved its amount on the run). */
export async function insertCapital(
  db: Sql,
  runId: number,
  amount: bigint,
  at: number,
  clientKey: string | null,
): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO robot_capital (run_id, amount_minor, at, status, client_key) VALUES ($1, $2, $3, 'pending', $4)
     RETURNING id`,
    [runId, amount.toString(), at, clientKey],
  );
  return Number(rows[0]?.id);
}

const CAPITAL_SELECT = `SELECT c.id, c.run_id, c.amount_minor, c.status, r.user_id, r.instrument_id
  FROM robot_capital c JOIN robot_runs r ON r.id = c.run_id`;
const capitalRow = (r: Record<string, unknown>): CapitalRow => ({
  id: num(r.id),
  run_id: num(r.run_id),
  user_id: num(r.user_id),
  instrument_id: String(r.instrument_id),
  amount: big(r.amount_minor),
  status: r.status as CapitalStatus,
});

export async function capitalOf(db: Sql, runId: number): Promise<CapitalRow[]> {
  const rows = await db.query<Record<string, unknown>>(`${CAPITAL_SELECT} WHERE c.run_id = $1 ORDER BY c.id`, [runId]);
  return rows.map(capitalRow);
}

/** Capital rows still to move (of one run, or of all), oldest first. */
export async function pendingCapital(db: Sql, runId?: number): Promise<CapitalRow[]> {
  const rows =
    runId === undefined
      ? await db.query<Record<string, unknown>>(`${CAPITAL_SELECT} WHERE c.status = 'pending' ORDER BY c.id`)
      : await db.query<Record<string, unknown>>(
          `${CAPITAL_SELECT} WHERE c.status = 'pending' AND c.run_id = $1 ORDER BY c.id`,
          [runId],
        );
  return rows.map(capitalRow);
}

export async function capitalByKey(db: Sql, runId: number, key: string): Promise<CapitalRow | undefined> {
  const rows = await db.query<Record<string, unknown>>(`${CAPITAL_SELECT} WHERE c.run_id = $1 AND c.client_key = $2`, [
    runId,
    key,
  ]);
  return rows[0] ? capitalRow(rows[0]) : undefined;
}

/**
 * Reserves an addition on a running run, in one statement so two concurrent additions cannot pass the
 * single limit together: false (nothing changed) when the run is not running or the limit would be passed.
 */
export async function reserveCapital(db: Sql, runId: number, amount: bigint): Promise<boolean> {
  const changed = await db.run(
    `UPDATE robot_runs SET pending_minor = pending_minor + $1
     WHERE id = $2 AND status = 'running' AND capital_minor + pending_minor + $1 <= max_minor`,
    [amount.toString(), runId],
  );
  return changed > 0;
}

/**
 * A pending capital row settled: moved (its amount leaves the reservation and joins the capital) or
 * refused (the reservation is released; nothing moved). Once only: false when the row is not pending.
 */
export async function settleCapital(db: Sql, row: CapitalRow, to: 'moved' | 'refused'): Promise<boolean> {
  const allowed = await db.query(
    "SELECT 1 FROM robot_capital_transitions WHERE from_status = 'pending' AND to_status = $1",
    [to],
  );
  if (allowed.length === 0) throw new Error(`robot capital ${row.id}: pending → ${to} is not a transition`);
  const changed = await db.run("UPDATE robot_capital SET status = $1 WHERE id = $2 AND status = 'pending'", [
    to,
    row.id,
  ]);
  if (changed === 0) return false;
  await db.run(
    `UPDATE robot_runs SET pending_minor = pending_minor - $1, capital_minor = capital_minor + $2 WHERE id = $3`,
    [row.amount.toString(), (to === 'moved' ? row.amount : 0n).toString(), row.run_id],
  );
  return true;
}

export async function findRunByKey(db: Sql, userId: number, key: string): Promise<RunRow | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM robot_runs WHERE user_id = $1 AND client_key = $2',
    [userId, key],
  );
  return rows[0] ? run(rows[0]) : undefined;
}

/** The run's fills after the folded ones, in trade id order (a page of `limit`). */
export async function fillsAfter(db: Sql, account: string, instrumentId: string, afterId: bigint, limit: number) {
  return db.query<{
    id: unknown;
    qty_lots: unknown;
    notional: unknown;
    taker_side: 'buy' | 'sell';
    taker_user_id: string;
    maker_fee: unknown;
    taker_fee: unknown;
  }>(
    `SELECT id, qty_lots, notional, taker_side, taker_user_id, maker_fee, taker_fee FROM trades
     WHERE (maker_user_id = $1 OR taker_user_id = $1) AND instrument_id = $2 AND id > $3 ORDER BY id LIMIT $4`,
    [account, instrumentId, afterId.toString(), limit],
  );
}

export type PnlTotals = Pick<
  RunRow,
  'pnl_cursor' | 'pnl_lots' | 'pnl_cost' | 'pnl_realized' | 'pnl_fees' | 'pnl_trades'
>;

/** The folded totals saved, only over the cursor they were folded from (a concurrent fold writes once). */
export async function savePnl(db: Sql, id: number, fromCursor: bigint, t: PnlTotals): Promise<void> {
  await db.run(
    `UPDATE robot_runs SET pnl_cursor = $1, pnl_lots = $2, pnl_cost = $3, pnl_realized = $4, pnl_fees = $5,
       pnl_trades = $6 WHERE id = $7 AND pnl_cursor = $8`,
    [
      t.pnl_cursor.toString(),
      t.pnl_lots.toString(),
      t.pnl_cost.toString(),
      t.pnl_realized.toString(),
      t.pnl_fees.toString(),
      t.pnl_trades,
      id,
      fromCursor.toString(),
    ],
  );
}

export async function findRun(db: Sql, id: number): Promise<RunRow | undefined> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM robot_runs WHERE id = $1', [id]);
  return rows[0] ? run(rows[0]) : undefined;
}

const GROUPS: Record<'running' | 'ended' | 'all', readonly RobotRunStatus[]> = {
  running: ['starting', 'running', 'stopping'],
  ended: ['stopped', 'finished', 'failed'],
  all: ['starting', 'running', 'stopping', 'stopped', 'finished', 'failed'],
};

export async function listRuns(
  db: Sql,
  q: { userId?: number; group: 'running' | 'ended' | 'all'; limit: number; offset: number },
): Promise<{ rows: RunRow[]; total: number }> {
  const statuses = GROUPS[q.group];
  const params: (string | number)[] = [...statuses];
  let where = `status IN (${statuses.map((_, i) => `$${i + 1}`).join(', ')})`;
  if (q.userId !== undefined) {
    params.push(q.userId);
    where += ` AND user_id = $${params.length}`;
  }
  const count = await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM robot_runs WHERE ${where}`, params);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM robot_runs WHERE ${where} ORDER BY id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    params,
  );
  return { rows: rows.map(run), total: Number(count[0]?.n ?? 0) };
}

export async function runsIn(db: Sql, statuses: readonly RobotRunStatus[]): Promise<RunRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM robot_runs WHERE status IN (${statuses.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY id`,
    [...statuses],
  );
  return rows.map(run);
}

export async function addHistory(
  db: Sql,
  runId: number,
  from: string,
  to: string,
  at: number,
  actor: 'customer' | 'system',
  reason: string,
): Promise<void> {
  await db.run(
    'INSERT INTO robot_run_history (run_id, from_status, to_status, at, actor, reason) VALUES ($1, $2, $3, $4, $5, $6)',
    [runId, from, to, at, actor, reason],
  );
}

export async function moveRun(
  db: Sql,
  id: number,
  from: RobotRunStatus,
  to: RobotRunStatus,
  at: number,
  actor: 'customer' | 'system',
  set: { end_reason?: 'customer' | 'period_end'; ended_at?: number } = {},
): Promise<boolean> {
  const allowed = await db.query('SELECT 1 FROM robot_run_transitions WHERE from_status = $1 AND to_status = $2', [
    from,
    to,
  ]);
  if (allowed.length === 0) throw new Error(`robot run ${id}: ${from} → ${to} is not a transition`);
  const changed = await db.run(
    `UPDATE robot_runs SET status = $1, updated_at = $2, end_reason = COALESCE($3, end_reason),
       ended_at = COALESCE($4, ended_at) WHERE id = $5 AND status = $6`,
    [to, at, set.end_reason ?? null, set.ended_at ?? null, id, from],
  );
  if (changed > 0) await addHistory(db, id, from, to, at, actor, set.end_reason ?? '');
  return changed > 0;
}

export async function saveTick(db: Sql, id: number, tick: number, memo: string): Promise<void> {
  await db.run('UPDATE robot_runs SET last_tick = $1, memo = $2 WHERE id = $3', [tick, memo, id]);
}

/** The end's figures, written once (before the money moves back) so a retry sends the same amounts. */
export async function saveFinal(db: Sql, id: number, finalMinor: bigint, feeMinor: bigint): Promise<void> {
  await db.run('UPDATE robot_runs SET final_minor = $1, fee_minor = $2 WHERE id = $3 AND final_minor IS NULL', [
    finalMinor.toString(),
    feeMinor.toString(),
    id,
  ]);
}

export async function saveReturned(db: Sql, id: number, returned: bigint): Promise<void> {
  await db.run('UPDATE robot_runs SET returned_minor = $1 WHERE id = $2', [returned.toString(), id]);
}
