// Owns the map from order id (a safe integer) to book slot: open addressing with linear probing in
// typed arrays and backward-shift deletion, so inserts and deletes never allocate or leave tombstones.
// Must hold: get(id) returns the slot last set for id until it is deleted; load factor stays <= 1/2.
// Must not: allocate except when doubling its capacity.

const EMPTY = -1;

export class IdIndex {
  /**
   * Per table position: the id at 2 × position and its slot (EMPTY: none) at 2 × position + 1, side by
   * side so a probe reads one cache line.
   */
  private table: Float64Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity * 2) capacity *= 2;
    this.table = emptyTable(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /**
   * Ids in runs of four take neighbouring positions (usually one cache line): order ids are given out in
   * sequence, so a new order's entry lands in a line the last few orders just used. The runs themselves
   * are spread by a hash, so a block of ids that stays live (a ladder of resting orders) does not turn
   * into one long probe run for the ids that come round to it later.
   */
  private home(id: number): number {
    const lo = id >>> 0;
    const hi = (id / 4294967296) >>> 0;
    const run = Math.imul((lo >>> 2) ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
    return ((run << 2) | (lo & 3)) & this.mask;
  }

  /** The slot stored for id, or -1. */
  get(id: number): number {
    const table = this.table;
    let i = this.home(id);
    for (;;) {
      const value = table[2 * i + 1] as number;
      if (value === EMPTY) return EMPTY;
      if (table[2 * i] === id) return value;
      i = (i + 1) & this.mask;
    }
  }

  has(id: number): boolean {
    return this.get(id) !== EMPTY;
  }

  set(id: number, slot: number): void {
    if ((this.count + 1) * 2 > this.mask + 1) this.grow();
    const table = this.table;
    let i = this.home(id);
    for (;;) {
      const value = table[2 * i + 1] as number;
      if (value === EMPTY) {
        table[2 * i] = id;
        table[2 * i + 1] = slot;
        this.count += 1;
        return;
      }
      if (table[2 * i] === id) {
        table[2 * i + 1] = slot;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  delete(id: number): boolean {
    const table = this.table;
    const mask = this.mask;
    let i = this.home(id);
    for (;;) {
      const value = table[2 * i + 1] as number;
      if (value === EMPTY) return false;
      if (table[2 * i] === id) break;
      i = (i + 1) & mask;
    }
    // Backward-shift: pull later entries of the probe run into the hole so lookups never need tombstones.
    let hole = i;
    let j = (i + 1) & mask;
    while ((table[2 * j + 1] as number) !== EMPTY) {
      const key = table[2 * j] as number;
      const home = this.home(key);
      const distanceFromHome = (j - home) & mask;
      const distanceFromHole = (j - hole) & mask;
      if (distanceFromHome >= distanceFromHole) {
        table[2 * hole] = key;
        table[2 * hole + 1] = table[2 * j + 1] as number;
        hole = j;
      }
      j = (j + 1) & mask;
    }
    table[2 * hole + 1] = EMPTY;
    this.count -= 1;
    return true;
  }

  private grow(): void {
    const old = this.table;
    const positions = old.length; // twice the old capacity
    this.table = emptyTable(positions);
    this.mask = positions - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      const value = old[i + 1] as number;
      if (value !== EMPTY) this.set(old[i] as number, value);
    }
  }
}

/** A table of `positions` empty positions. */
function emptyTable(positions: number): Float64Array {
  const table = new Float64Array(2 * positions);
  for (let i = 1; i < table.length; i += 2) table[i] = EMPTY;
  return table;
}
