// Re-runs an IPO's retail draw from its public record, in the browser, with the very function the
// server ran (drawIpoRetail from @bourse/contract/ipo-draw), and compares: does the revealed seed match
// the hash published at the opening, is the beacon round genuine and published after the close (the
// draw ran on SHA-256(seed ‖ round randomness), decision 0036), is the mode the same, and which
// allottees agree. The page shows// the counts; nothing here trusts the record's own `allotments` beyond comparing against them.

import type { IpoDrawAllotment, IpoDrawRecordView } from '@bourse/contract';
import {
  type BeaconCheck,
  checkRecordBeacon,
  drawIpoRetail,
  ipoSeedHash,
  recordDrawSeed,
} from '@bourse/contract/ipo-draw';

export interface DrawCheck {
  isHashOk: boolean;
  /**
   * The public beacon round mixed into the seed: `verified` (drand, signed, published after the
   * close), `sandbox` (paper mode: produced by this server, proves nothing to an outsider), `none`
   * (a v1 draw on the seed alone), or what is wrong with it.
   */
  beacon: BeaconCheck;
  mode: 'lottery' | 'proportionate';
  isModeOk: boolean;
  /** Allottees with the same lots in the record and in the re-run. */
  matched: number;
  /** Picked by the re-run but absent from the record (or given other lots there). */
  missingInRecord: IpoDrawAllotment[];
  /** In the record but not picked by the re-run (or with other lots). */
  extraInRecord: IpoDrawAllotment[];
  /** The re-run's allotments by reference, to look one's own application up. */
  byRef: Map<string, number>;
  isReproduced: boolean;
}

export function checkDraw(record: IpoDrawRecordView): DrawCheck {
  const isHashOk = /^[0-9a-f]{64}$/.test(record.seed) && ipoSeedHash(record.seed) === record.seedHash;
  const beacon = checkRecordBeacon(record);
  const rerun = drawIpoRetail({
    seed: recordDrawSeed(record),
    applications: record.applications,
    retailShares: BigInt(record.retailShares),
    lotSize: record.lotSize,
  });
  const byRef = new Map(rerun.allotments.map((a) => [a.ref, a.lots]));
  const published = new Map(record.allotments.map((a) => [a.ref, a.lots]));
  let matched = 0;
  const missingInRecord: IpoDrawAllotment[] = [];
  for (const allotment of rerun.allotments) {
    if (published.get(allotment.ref) === allotment.lots) matched++;
    else missingInRecord.push(allotment);
  }
  const extraInRecord = record.allotments.filter((a) => byRef.get(a.ref) !== a.lots);
  const isModeOk = rerun.mode === record.mode;
  const isBeaconOk = beacon === 'verified' || beacon === 'sandbox' || beacon === 'none';
  return {
    isHashOk,
    beacon,
    mode: rerun.mode,
    isModeOk,
    matched,
    missingInRecord,
    extraInRecord,
    byRef,
    isReproduced: isHashOk && isBeaconOk && isModeOk && missingInRecord.length === 0 && extraInRecord.length === 0,
  };
}
