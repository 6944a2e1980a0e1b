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
  capital_minor: bigint;
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
    seed: num(r.seed),
    last_tick: num(r.last_tick),
    final_minor: bigOrNull(r.final_minor),
    fee_minor: bigOrNull(r.fee_minor),
    returned_minor: bigOrNull(r.returned_minor),
    started_at: num(r.started_at),
    ends_at: num(r.ends_at),
    ended_at: r.ended_at === null ? null : num(r.ended_at),
    updated_at: num(r.updated_at),
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

export async function countDemoTemplates(db: Sql): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM robot_templates WHERE demo = 1');
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
  | 'capital_minor'
  | 'seed'
  | 'started_at'
  | 'ends_at'
>;

/** A new run in `starting` with its first capital row; answers both ids. */
export async function insertRun(db: Sql, r: NewRun): Promise<{ runId: number; capitalId: number }> {
  const rows = await db.query<{ id: number }>(
    `INSERT INTO robot_runs (user_id, template_id, name, instrument_id, strategy, params, level, period_days,
       min_minor, max_minor, profit_ratio_pct, capital_minor, seed, status, started_at, ends_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'starting', $14, $15, $14) RETURNING id`,
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
      r.capital_minor.toString(),
      r.seed,
      r.started_at,
      r.ends_at,
    ],
  );
  const runId = Number(rows[0]?.id);
  await addHistory(db, runId, 'new', 'starting', r.started_at, 'customer', '');
  const capitalId = await insertCapital(db, runId, r.capital_minor, r.started_at);
  return { runId, capitalId };
}

export async function insertCapital(db: Sql, runId: number, amount: bigint, at: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'INSERT INTO robot_capital (run_id, amount_minor, at) VALUES ($1, $2, $3) RETURNING id',
    [runId, amount.toString(), at],
  );
  return Number(rows[0]?.id);
}

export async function capitalOf(db: Sql, runId: number): Promise<{ id: number; amount: bigint }[]> {
  const rows = await db.query<{ id: number; amount_minor: unknown }>(
    'SELECT id, amount_minor FROM robot_capital WHERE run_id = $1 ORDER BY id',
    [runId],
  );
  return rows.map((r) => ({ id: Number(r.id), amount: big(r.amount_minor) }));
}

export async function addCapital(db: Sql, runId: number, amount: bigint): Promise<boolean> {
  const changed = await db.run(
    `UPDATE robot_runs SET capital_minor = capital_minor + $1 WHERE id = $2 AND status = 'running'`,
    [amount.toString(), runId],
  );
  return changed > 0;
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
