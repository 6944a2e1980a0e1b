// Owns the state hash's function: MurmurHash3 x86_128 over 32-bit words (state-hash.ts decides what is
// fed). Must hold: the same words always give the same 32-hex-digit hash on every platform.
// Must not: use node:crypto or anything outside plain arithmetic.

/**
 * MurmurHash3 x86_128 (Austin Appleby's, public domain), fed 32-bit words: the hash of the bytes those
 * words are in little-endian order, whatever the platform's own order. `digest()` gives its four 32-bit
 * outputs h1…h4 as 32 hex digits, each word most significant digit first (as the reference tests print
 * them). For the state hash (state-hash.ts), over ~50 MB at each snapshot: it takes a 16-byte block per
 * step with 32-bit multiplies (~0.5 ns a byte measured here; the FNV-1a it replaced took ~3 ns per
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
