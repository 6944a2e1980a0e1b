// Owns the price levels of one book, indexed by tick, in lazily allocated pages of 1,024 ticks,
// plus a three-tier occupancy bitmap that finds the next non-empty level in a few word operations.
// Must hold: a level's occupancy bit is set exactly when its head is not -1. Must not: allocate per order.

export const PAGE_SHIFT = 10;
export const PAGE_SIZE = 1 << PAGE_SHIFT;
const WORDS_PER_PAGE = PAGE_SIZE >> 5;
/** Upper bound on ticks per book (67,108,863): 65,536 pages, 2,048 page words, 64 summary words. */
export const MAX_TICK_LIMIT = (1 << 26) - 1;

/** One page of 1,024 consecutive ticks: queue ends, resting quantity (lots) and occupancy words. */
export class LevelPage {
  readonly head = new Int32Array(PAGE_SIZE).fill(-1);
  readonly tail = new Int32Array(PAGE_SIZE).fill(-1);
  readonly qty = new Float64Array(PAGE_SIZE);
  readonly words = new Uint32Array(WORDS_PER_PAGE);
  /** Bit w set when words[w] is non-zero. */
  summary = 0;
}

function highestBit(x: number): number {
  return 31 - Math.clz32(x);
}

function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Bits 0..b (inclusive). */
function maskAtOrBelow(b: number): number {
  return 0xffffffff >>> (31 - b);
}

/** Bits b..31 (inclusive). */
function maskAtOrAbove(b: number): number {
  return (0xffffffff << b) >>> 0;
}

export class PriceLevels {
  readonly maxTick: number;
  private readonly pages: (LevelPage | undefined)[];
  /** Bit p set when page p has any non-empty level. */
  private readonly pageBits: Uint32Array;
  /** Bit j set when pageBits[j] is non-zero. */
  private readonly pageSummary: Uint32Array;

  constructor(maxTick: number) {
    if (!Number.isInteger(maxTick) || maxTick < 1 || maxTick > MAX_TICK_LIMIT) {
      throw new Error(`maxTick must be an integer in 1..${MAX_TICK_LIMIT}`);
    }
    this.maxTick = maxTick;
    const pageCount = (maxTick >> PAGE_SHIFT) + 1;
    this.pages = new Array<LevelPage | undefined>(pageCount).fill(undefined);
    this.pageBits = new Uint32Array((pageCount >> 5) + 1);
    this.pageSummary = new Uint32Array((this.pageBits.length >> 5) + 1);
  }

  /** The page holding `tick`, created on first use. */
  pageOf(tick: number): LevelPage {
    const index = tick >> PAGE_SHIFT;
    let page = this.pages[index];
    if (page === undefined) {
      page = new LevelPage();
      this.pages[index] = page;
    }
    return page;
  }

  markOccupied(page: LevelPage, tick: number): void {
    const w = (tick >> 5) & (WORDS_PER_PAGE - 1);
    const wasEmptyPage = page.summary === 0;
    page.words[w] = (page.words[w] as number) | (1 << (tick & 31));
    page.summary |= 1 << w;
    if (wasEmptyPage) {
      const p = tick >> PAGE_SHIFT;
      const j = p >> 5;
      this.pageBits[j] = (this.pageBits[j] as number) | (1 << (p & 31));
      this.pageSummary[j >> 5] = (this.pageSummary[j >> 5] as number) | (1 << (j & 31));
    }
  }

  markEmpty(page: LevelPage, tick: number): void {
    const w = (tick >> 5) & (WORDS_PER_PAGE - 1);
    const word = (page.words[w] as number) & ~(1 << (tick & 31));
    page.words[w] = word;
    if (word !== 0) return;
    page.summary &= ~(1 << w);
    if (page.summary !== 0) return;
    const p = tick >> PAGE_SHIFT;
    const j = p >> 5;
    const bits = (this.pageBits[j] as number) & ~(1 << (p & 31));
    this.pageBits[j] = bits;
    if (bits === 0) this.pageSummary[j >> 5] = (this.pageSummary[j >> 5] as number) & ~(1 << (j & 31));
  }

  /** Highest occupied tick <= tick, or -1. */
  highestAtOrBelow(tick: number): number {
    if (tick < 0) return -1;
    if (tick > this.maxTick) tick = this.maxTick;
    const p = tick >> PAGE_SHIFT;
    const page = this.pages[p];
    if (page !== undefined && page.summary !== 0) {
      const w = (tick >> 5) & (WORDS_PER_PAGE - 1);
      const x = (page.words[w] as number) & maskAtOrBelow(tick & 31);
      if (x !== 0) return (p << PAGE_SHIFT) | (w << 5) | highestBit(x);
      if (w > 0) {
        const s = page.summary & maskAtOrBelow(w - 1);
        if (s !== 0) return topOfPage(page, p, highestBit(s));
      }
    }
    const q = this.highestPageBelow(p);
    if (q < 0) return -1;
    const found = this.pages[q] as LevelPage;
    return topOfPage(found, q, highestBit(found.summary));
  }

  /** Lowest occupied tick >= tick, or -1. */
  lowestAtOrAbove(tick: number): number {
    if (tick > this.maxTick) return -1;
    if (tick < 0) tick = 0;
    const p = tick >> PAGE_SHIFT;
    const page = this.pages[p];
    if (page !== undefined && page.summary !== 0) {
      const w = (tick >> 5) & (WORDS_PER_PAGE - 1);
      const x = (page.words[w] as number) & maskAtOrAbove(tick & 31);
      if (x !== 0) return (p << PAGE_SHIFT) | (w << 5) | lowestBit(x);
      if (w < WORDS_PER_PAGE - 1) {
        const s = page.summary & maskAtOrAbove(w + 1);
        if (s !== 0) return bottomOfPage(page, p, lowestBit(s));
      }
    }
    const q = this.lowestPageAbove(p);
    if (q < 0) return -1;
    const found = this.pages[q] as LevelPage;
    return bottomOfPage(found, q, lowestBit(found.summary));
  }

  private highestPageBelow(p: number): number {
    if (p === 0) return -1;
    const i = p - 1;
    let j = i >> 5;
    const x = (this.pageBits[j] as number) & maskAtOrBelow(i & 31);
    if (x !== 0) return (j << 5) | highestBit(x);
    if (j === 0) return -1;
    j -= 1;
    for (let k = j >> 5; k >= 0; k--) {
      let s = this.pageSummary[k] as number;
      if (k === j >> 5) s &= maskAtOrBelow(j & 31);
      if (s !== 0) {
        const word = (k << 5) | highestBit(s);
        return (word << 5) | highestBit(this.pageBits[word] as number);
      }
    }
    return -1;
  }

  private lowestPageAbove(p: number): number {
    const i = p + 1;
    let j = i >> 5;
    if (j >= this.pageBits.length) return -1;
    const x = (this.pageBits[j] as number) & maskAtOrAbove(i & 31);
    if (x !== 0) return (j << 5) | lowestBit(x);
    j += 1;
    for (let k = j >> 5; k < this.pageSummary.length; k++) {
      let s = this.pageSummary[k] as number;
      if (k === j >> 5) s &= maskAtOrAbove(j & 31);
      if (s !== 0) {
        const word = (k << 5) | lowestBit(s);
        return (word << 5) | lowestBit(this.pageBits[word] as number);
      }
    }
    return -1;
  }
}

function topOfPage(page: LevelPage, p: number, w: number): number {
  return (p << PAGE_SHIFT) | (w << 5) | highestBit(page.words[w] as number);
}

function bottomOfPage(page: LevelPage, p: number, w: number): number {
  return (p << PAGE_SHIFT) | (w << 5) | lowestBit(page.words[w] as number);
}
