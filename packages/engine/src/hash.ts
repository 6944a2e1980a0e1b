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
