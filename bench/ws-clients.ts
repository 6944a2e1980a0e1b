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
  /** Per client and channel: [channel, the last seq received, the last seq received of an update a driver step made]. */
  streams: [string, number, number][];
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
let seqs = new Float64Array(1 << 20);
/** Which client's channel (an index into streamChannels) each update came on. */
let streamOf = new Int32Array(1 << 20);
let noted = 0;
const streamChannels: string[] = [];

function note(tickTime: number, arrival: number, seq: number, stream: number) {
  if (noted === tickTimes.length) {
    const grow = <A extends Float64Array | Int32Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(a.length * 2);
      b.set(a);
      return b;
    };
    tickTimes = grow(tickTimes);
    arrivals = grow(arrivals);
    seqs = grow(seqs);
    streamOf = grow(streamOf);
  }
  tickTimes[noted] = tickTime;
  arrivals[noted] = arrival;
  seqs[noted] = seq;
  streamOf[noted] = stream;
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
    /** This client's stream index per channel. */
    const streams = new Map<string, number>();
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
        const seq = Number(head[2]);
        tracker.see(channel, seq);
        if (channel.startsWith('ticker:')) lastTickerTime = Number(TIME.exec(text)?.[1]);
        let stream = streams.get(channel);
        if (stream === undefined) {
          stream = streamChannels.push(channel) - 1;
          streams.set(channel, stream);
        }
        note(lastTickerTime, arrival, seq, stream);
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
  const lastAny = new Array<number>(streamChannels.length).fill(0);
  const lastDriven = new Array<number>(streamChannels.length).fill(0);
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
    const stream = streamOf[i] as number;
    lastAny[stream] = Math.max(lastAny[stream] as number, seqs[i] as number);
    if (!(latency >= 0)) {
      undriven++;
      continue;
    }
    histogram[bucketOf(latency)]! += 1;
    lastDriven[stream] = Math.max(lastDriven[stream] as number, seqs[i] as number);
  }
  const usage = process.cpuUsage();
  return {
    histogram,
    received: trackers.reduce((a, t) => a + t.received, 0),
    gaps: trackers.reduce((a, t) => a + t.gaps, 0),
    streams: streamChannels.map((channel, i) => [channel, lastAny[i] as number, lastDriven[i] as number]),
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
