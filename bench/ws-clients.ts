// A WebSocket fan-out bench's client process (a child of ws-bench.ts, over IPC): opens its share of the
// clients, each subscribing to one instrument's ticker and book channels, and notes for every update
// the channel, the seq and when it arrived (process.hrtime: CLOCK_MONOTONIC, the same clock in every
// process of the machine). Only the few fields needed are read from each message (a regular
// expression on its head), not the whole JSON, so the clients' own cost stays small.
// Asked 'report' with the driver's start times, it answers its latency histogram and seq counts.

import WebSocket from 'ws';
import { BUCKETS, bucketOf, SeqTracker } from './ws-workload.ts';

export type ClientsStart = { url: string; instruments: string[]; of: number[] };
export type ClientsReport = {
  histogram: number[];
  received: number;
  gaps: number;
  lasts: [string, number][];
  /**
   * Updates no driver step made: the server's own once-a-second market step (its clock runs on from
   * BOURSE_TEST_CLOCK) publishes too. Delivered and seq-checked, but not timed.
   */
  undriven: number;
  cpuMs: number;
};

const HEAD = /^\{"channel":"([^"]+)","seq":(\d+)/;
const TIME = /"time":(\d+)/;

let sockets: WebSocket[] = [];
const trackers: SeqTracker[] = [];
/** Per update: the tick time it carries (the ticker's own; a book's from its instrument's last ticker) and its arrival. */
let tickTimes = new Float64Array(1 << 20);
let arrivals = new Float64Array(1 << 20);
let noted = 0;

function note(tickTime: number, arrival: number) {
  if (noted === tickTimes.length) {
    const grow = (a: Float64Array) => {
      const b = new Float64Array(a.length * 2);
      b.set(a);
      return b;
    };
    tickTimes = grow(tickTimes);
    arrivals = grow(arrivals);
  }
  tickTimes[noted] = tickTime;
  arrivals[noted] = arrival;
  noted++;
}

async function start({ url, instruments, of }: ClientsStart) {
  // A few hundred connections at a time: thousands at once overflow the server's accept backlog.
  for (let i = 0; i < of.length; i += 250)
    await Promise.all(of.slice(i, i + 250).map((n) => open(url, instruments[n] as string)));
}

function open(url: string, id: string): Promise<void> {
  {
    const tracker = new SeqTracker();
    trackers.push(tracker);
    let lastTickerTime = Number.NaN;
    const socket = new WebSocket(url, { perMessageDeflate: false });
    sockets.push(socket);
    return new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (raw: Buffer) => {
        const arrival = Number(process.hrtime.bigint()) / 1000;
        const text = raw.toString();
        const head = HEAD.exec(text);
        if (!head) {
          if (text.startsWith('{"op":"subscribed"')) resolve();
          return;
        }
        const channel = head[1] as string;
        tracker.see(channel, Number(head[2]));
        if (channel.startsWith('ticker:')) lastTickerTime = Number(TIME.exec(text)?.[1]);
        note(lastTickerTime, arrival);
      });
      socket.once('open', () =>
        socket.send(JSON.stringify({ op: 'subscribe', channels: [`ticker:${id}`, `book:${id}`] })),
      );
    });
  }
}

/** `steps`: [tick time, driver's start in µs of the monotonic clock] of every driver step, ascending. */
function report(steps: [number, number][]): ClientsReport {
  const histogram = new Array<number>(BUCKETS).fill(0);
  const times = steps.map((s) => s[0]);
  let undriven = 0;
  for (let i = 0; i < noted; i++) {
    // The first step whose clock reached the tick's time is the one that produced it.
    const t = tickTimes[i] as number;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((times[mid] as number) < t) lo = mid + 1;
      else hi = mid;
    }
    // A tick after the last step, or one that arrived before the step it would belong to began.
    const latency = lo === times.length ? Number.NaN : (arrivals[i] as number) - (steps[lo] as [number, number])[1];
    if (!(latency >= 0)) {
      undriven++;
      continue;
    }
    histogram[bucketOf(latency)]! += 1;
  }
  const lasts: [string, number][] = [];
  for (const tracker of trackers) for (const [channel, last] of tracker.last) lasts.push([channel, last]);
  const usage = process.cpuUsage();
  return {
    histogram,
    received: trackers.reduce((a, t) => a + t.received, 0),
    gaps: trackers.reduce((a, t) => a + t.gaps, 0),
    lasts,
    undriven,
    cpuMs: Math.round((usage.user + usage.system) / 1000),
  };
}

process.on('message', (message: { start?: ClientsStart; report?: [number, number][]; close?: true }) => {
  if (message.start) {
    start(message.start).then(
      () => process.send?.({ started: true }),
      (error: unknown) => process.send?.({ failed: String(error) }),
    );
  } else if (message.report) {
    process.send?.({ report: report(message.report) });
  } else if (message.close) {
    for (const socket of sockets) socket.terminate();
    sockets = [];
    process.exit(0);
  }
});
