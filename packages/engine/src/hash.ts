// Owns the state hash's function: 64-bit FNV-1a over UTF-16 code units (state-hash.ts decides what is
// fed; the v1 state hash fed it the snapshot's JSON).
// Must hold: the same units always give the same 16-hex-digit hash on every platform.
// Must not: use node:crypto or anything outside plain arithmetic.
//
// The 64-bit state is kept in four 16-bit limbs so that every product stays a small integer (the
// multiply by the FNV prime 2^40 + 0x1b3 is a multiply by 0x1b3 plus a shift by 40 bits): about ten
// times faster than splitting it in two 32-bit halves with divisions, which matters because the host
// hashes the whole state (tens of millions of units) at every snapshot and start-up.

const PRIME_LO = 0x1b3;

export function fnv1a64(text: string): string {
  // Offset basis 0xcbf29ce484222325.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    const t0 = h0 * PRIME_LO;
    let t1 = h1 * PRIME_LO;
    let t2 = h2 * PRIME_LO + (h0 << 8);
    const t3 = h3 * PRIME_LO + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  }
  const hex = (n: number) => n.toString(16).padStart(4, '0');
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}

/**
 * FNV-1a 64 fed piece by piece, in 16-bit units: `text(s)` then `digest()` equals fnv1a64(s), and
 * feeding pieces one after another equals hashing their concatenation. For hashes over a structure
 * walked in place (see state-hash.ts), without building its text first.
 */
export class Fnv64 {
  private h0 = 0x2325;
  private h1 = 0x8422;
  private h2 = 0x9ce4;
  private h3 = 0xcbf2;
  /** Scratch for decimal(): the digits, lowest first. */
  private readonly digits = new Uint16Array(24);

  /** One unit (0..0xffff). */
  unit(u: number): void {
    const h0 = this.h0 ^ u;
    const t0 = h0 * PRIME_LO;
    let t1 = this.h1 * PRIME_LO;
    let t2 = this.h2 * PRIME_LO + (h0 << 8);
    const t3 = this.h3 * PRIME_LO + (this.h1 << 8);
    t1 += t0 >>> 16;
    this.h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    this.h1 = t1 & 0xffff;
    this.h3 = (t3 + (t2 >>> 16)) & 0xffff;
    this.h2 = t2 & 0xffff;
  }

  /** Three units, in order. */
  unit3(a: number, b: number, c: number): void {
    this.unit(a);
    this.unit(b);
    this.unit(c);
  }

  /** The string's UTF-16 code units, in order. */
  text(text: string): void {
    let h0 = this.h0;
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    for (let i = 0; i < text.length; i++) {
      h0 ^= text.charCodeAt(i);
      const t0 = h0 * PRIME_LO;
      let t1 = h1 * PRIME_LO;
      let t2 = h2 * PRIME_LO + (h0 << 8);
      const t3 = h3 * PRIME_LO + (h1 << 8);
      t1 += t0 >>> 16;
      h0 = t0 & 0xffff;
      t2 += t1 >>> 16;
      h1 = t1 & 0xffff;
      h3 = (t3 + (t2 >>> 16)) & 0xffff;
      h2 = t2 & 0xffff;
    }
    this.h0 = h0;
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
  }

  /**
   * `tag`, then the length and the characters of String(n) for a safe integer n (as unit3(tag, length,
   * 0) and text(String(n)) would feed them), without making the string.
   */
  decimal(tag: number, n: number): void {
    const digits = this.digits;
    const magnitude = n < 0 ? -n : n;
    // Two int32 chunks of eight digits (|n| < 2^53 < 10^16), so the digits come from integer arithmetic.
    let high = magnitude >= 1e8 ? Math.floor(magnitude / 1e8) : 0;
    let low = magnitude - high * 1e8;
    if (low < 0) {
      high -= 1;
      low += 1e8;
    } else if (low >= 1e8) {
      high += 1;
      low -= 1e8;
    }
    let count = 0;
    if (high > 0) {
      for (let k = 0; k < 8; k++) {
        const q = (low / 10) | 0;
        digits[count++] = 0x30 + low - q * 10;
        low = q;
      }
      low = high;
    }
    do {
      const q = (low / 10) | 0;
      digits[count++] = 0x30 + low - q * 10;
      low = q;
    } while (low > 0);
    if (n < 0) digits[count++] = 0x2d;
    this.unit3(tag, count, 0);
    let h0 = this.h0;
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    for (let i = count - 1; i >= 0; i--) {
      h0 ^= digits[i] as number;
      const t0 = h0 * PRIME_LO;
      let t1 = h1 * PRIME_LO;
      let t2 = h2 * PRIME_LO + (h0 << 8);
      const t3 = h3 * PRIME_LO + (h1 << 8);
      t1 += t0 >>> 16;
      h0 = t0 & 0xffff;
      t2 += t1 >>> 16;
      h1 = t1 & 0xffff;
      h3 = (t3 + (t2 >>> 16)) & 0xffff;
      h2 = t2 & 0xffff;
    }
    this.h0 = h0;
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
  }

  /** The hash so far, as 16 hex digits (feeding may go on). */
  digest(): string {
    const hex = (n: number) => n.toString(16).padStart(4, '0');
    return hex(this.h3) + hex(this.h2) + hex(this.h1) + hex(this.h0);
  }
}

/**
 * MurmurHash3 x86_128 (Austin Appleby's, public domain), fed 32-bit words: the hash of the bytes those
 * words are in little-endian order, whatever the platform's own order. `digest()` gives its four 32-bit
 * outputs h1…h4 as 32 hex digits, each word most significant digit first (as the reference tests print
 * them). For the v3 state hash (state-hash.ts), over ~50 MB at each snapshot: it takes a 16-byte block
 * per step with 32-bit multiplies (~0.5 ns a byte measured here, where FNV-1a above takes ~3 ns per
 * 16-bit unit: one dependent chain of steps).
 */
export class Murmur3x128 {
  private h1: number;
  private h2: number;
  private h3: number;
  private h4: number;
  /** Words waiting for a full block of four (`pending` of them). */
  private p0 = 0;
  private p1 = 0;
  private p2 = 0;
  private pending = 0;
  /** Words fed so far. */
  private count = 0;

  constructor(seed = 0) {
    this.h1 = seed | 0;
    this.h2 = seed | 0;
    this.h3 = seed | 0;
    this.h4 = seed | 0;
  }

  /** One 32-bit word (its low 32 bits). */
  word(w: number): void {
    this.count += 1;
    if (this.pending === 0) {
      this.p0 = w | 0;
      this.pending = 1;
    } else if (this.pending === 1) {
      this.p1 = w | 0;
      this.pending = 2;
    } else if (this.pending === 2) {
      this.p2 = w | 0;
      this.pending = 3;
    } else {
      this.pending = 0;
      this.block(this.p0, this.p1, this.p2, w | 0);
    }
  }

  /** The words of an Int32Array, by value (so the platform's byte order does not matter). */
  words(words: Int32Array): void {
    const n = words.length;
    let i = 0;
    while (this.pending !== 0 && i < n) this.word(words[i++] as number);
    const end = i + ((n - i) & ~3);
    this.count += end - i;
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    let h4 = this.h4;
    for (; i < end; i += 4) {
      let k1 = words[i] as number;
      let k2 = words[i + 1] as number;
      let k3 = words[i + 2] as number;
      let k4 = words[i + 3] as number;
      k1 = Math.imul(k1, C1);
      k1 = (k1 << 15) | (k1 >>> 17);
      h1 ^= Math.imul(k1, C2);
      h1 = (h1 << 19) | (h1 >>> 13);
      h1 = (Math.imul(h1 + h2, 5) + 0x561ccd1b) | 0;
      k2 = Math.imul(k2, C2);
      k2 = (k2 << 16) | (k2 >>> 16);
      h2 ^= Math.imul(k2, C3);
      h2 = (h2 << 17) | (h2 >>> 15);
      h2 = (Math.imul(h2 + h3, 5) + 0x0bcaa747) | 0;
      k3 = Math.imul(k3, C3);
      k3 = (k3 << 17) | (k3 >>> 15);
      h3 ^= Math.imul(k3, C4);
      h3 = (h3 << 15) | (h3 >>> 17);
      h3 = (Math.imul(h3 + h4, 5) + 0x96cd1c35) | 0;
      k4 = Math.imul(k4, C4);
      k4 = (k4 << 18) | (k4 >>> 14);
      h4 ^= Math.imul(k4, C1);
      h4 = (h4 << 13) | (h4 >>> 19);
      h4 = (Math.imul(h4 + h1, 5) + 0x32ac3b17) | 0;
    }
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
    this.h4 = h4;
    for (; i < n; i++) this.word(words[i] as number);
  }

  /** The hash of what was fed so far (feeding may go on). */
  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    let h4 = this.h4;
    // The tail: the words short of a block, as the reference takes its last 1-15 bytes.
    if (this.pending >= 3) {
      let k3 = Math.imul(this.p2, C3);
      k3 = (k3 << 17) | (k3 >>> 15);
      h3 ^= Math.imul(k3, C4);
    }
    if (this.pending >= 2) {
      let k2 = Math.imul(this.p1, C2);
      k2 = (k2 << 16) | (k2 >>> 16);
      h2 ^= Math.imul(k2, C3);
    }
    if (this.pending >= 1) {
      let k1 = Math.imul(this.p0, C1);
      k1 = (k1 << 15) | (k1 >>> 17);
      h1 ^= Math.imul(k1, C2);
    }
    // The length in bytes, modulo 2^32 as the reference's 32-bit arithmetic has it.
    const length = ((this.count * 4) % 0x100000000) | 0;
    h1 ^= length;
    h2 ^= length;
    h3 ^= length;
    h4 ^= length;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = fmix32(h1);
    h2 = fmix32(h2);
    h3 = fmix32(h3);
    h4 = fmix32(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
    return hex(h1) + hex(h2) + hex(h3) + hex(h4);
  }

  private block(k1: number, k2: number, k3: number, k4: number): void {
    let h1 = this.h1;
    let h2 = this.h2;
    let h3 = this.h3;
    let h4 = this.h4;
    k1 = Math.imul(k1, C1);
    k1 = (k1 << 15) | (k1 >>> 17);
    h1 ^= Math.imul(k1, C2);
    h1 = (h1 << 19) | (h1 >>> 13);
    h1 = (Math.imul(h1 + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(k2, C2);
    k2 = (k2 << 16) | (k2 >>> 16);
    h2 ^= Math.imul(k2, C3);
    h2 = (h2 << 17) | (h2 >>> 15);
    h2 = (Math.imul(h2 + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(k3, C3);
    k3 = (k3 << 17) | (k3 >>> 15);
    h3 ^= Math.imul(k3, C4);
    h3 = (h3 << 15) | (h3 >>> 17);
    h3 = (Math.imul(h3 + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(k4, C4);
    k4 = (k4 << 18) | (k4 >>> 14);
    h4 ^= Math.imul(k4, C1);
    h4 = (h4 << 13) | (h4 >>> 19);
    h4 = (Math.imul(h4 + h1, 5) + 0x32ac3b17) | 0;
    this.h1 = h1;
    this.h2 = h2;
    this.h3 = h3;
    this.h4 = h4;
  }
}

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
