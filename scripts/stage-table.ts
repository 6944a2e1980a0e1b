// Owns the table `npm test` prints at its end: each stage's name, seconds and outcome, and the total.
// Must hold: one row per stage in run order, seconds with one decimal, columns aligned.
// Must not: print the "tests: N passed, N failed" line (scripts/test.ts prints it last, after this).

export type Stage = { name: string; seconds: number; passed: boolean };

/** The stages as an aligned text table with a header and a total row. */
export function stageTable(stages: readonly Stage[]): string {
  const total = stages.reduce((sum, stage) => sum + stage.seconds, 0);
  type Row = [name: string, seconds: string, result: string];
  const outcome = (passed: boolean) => (passed ? 'passed' : 'failed');
  const header: Row = ['stage', 'seconds', 'result'];
  const body = stages.map((stage): Row => [stage.name, stage.seconds.toFixed(1), outcome(stage.passed)]);
  const footer: Row = ['total', total.toFixed(1), outcome(stages.every((stage) => stage.passed))];
  const rows = [header, ...body, footer];
  const nameWidth = Math.max(...rows.map((row) => row[0].length));
  const secondsWidth = Math.max(...rows.map((row) => row[1].length));
  const line = (row: Row) => `${row[0].padEnd(nameWidth)}  ${row[1].padStart(secondsWidth)}  ${row[2]}`;
  const rule = '-'.repeat(nameWidth + secondsWidth + 10);
  return [line(header), rule, ...body.map(line), rule, line(footer)].join('\n');
}
