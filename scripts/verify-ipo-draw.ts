// Re-runs an IPO's retail draw from its public record and says whether it reproduces (decisions 0031,
// 0036): the seed must hash to the published commitment, the beacon round must be published after the
// close (and, for drand, carry a valid signature of the League of Entropy), and drawIpoRetail on
// SHA-256(seed ‖ round randomness) and the published applications must give the published allottees.
// Anyone can run it against a live server; it needs no login. "beacon" in the output: verified (drand),
// sandbox (paper mode: the round was produced by the server itself, so it proves nothing), none (v1).
//
//   node scripts/verify-ipo-draw.ts <file-or-url>
//   node scripts/verify-ipo-draw.ts https://api.example.com/ipor-api/stock/index/new/draw?ipoId=3
//
// The input is the draw call's answer (the envelope { code, data }) or the record itself, as JSON.
// Prints one line of JSON ({ ok, ipoId, symbol, mode, beacon, applications, allottees, problems }); exits 0 when
// the draw reproduces, 1 when it does not, 2 when the input cannot be read.

import { readFile } from 'node:fs/promises';
import { ipoDrawRecordView } from '../packages/contract/src/ipo.ts';
import { verifyIpoDrawRecord } from '../packages/contract/src/ipo-draw.ts';

async function load(source: string): Promise<unknown> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${source} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

async function main(argv: readonly string[]): Promise<number> {
  const source = argv[0];
  if (!source) {
    console.error('usage: node scripts/verify-ipo-draw.ts <file-or-url>');
    return 2;
  }
  let record: ReturnType<typeof ipoDrawRecordView.parse>;
  try {
    const json = (await load(source)) as { data?: unknown };
    record = ipoDrawRecordView.parse(json && typeof json === 'object' && 'data' in json ? json.data : json);
  } catch (error) {
    console.error(`cannot read a draw record from ${source}: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  const { ok, problems, beacon } = verifyIpoDrawRecord(record);
  console.log(
    JSON.stringify({
      ok,
      ipoId: record.ipoId,
      symbol: record.symbol,
      mode: record.mode,
      beacon,
      applications: record.applications.length,
      allottees: record.allotments.length,
      problems,
    }),
  );
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
