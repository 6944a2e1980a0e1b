// Owns the map from order id (a safe integer) to book slot: open addressing with linear probing in
// typed arrays and backward-shift deletion, so inserts and deletes never allocate or leave tombstones.
// Must hold: get(id) returns the slot last set for id until it is deleted; load factor stays <= 1/2.
// Must not: allocate except when doubling its capacity.

const EMPTY = -1;

export class IdIndex {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity * 2) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  private home(id: number): number {
    const lo = id >>> 0;
    const hi = (id / 4294967296) >>> 0;
    return (Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0) & this.mask;
  }

  /** The slot stored for id, or -1. */
  get(id: number): number {
    let i = this.home(id);
    for (;;) {
      const value = this.values[i] as number;
      if (value === EMPTY) return EMPTY;
      if (this.keys[i] === id) return value;
      i = (i + 1) & this.mask;
    }
  }

  has(id: number): boolean {
    return this.get(id) !== EMPTY;
  }

  set(id: number, slot: number): void {
    if ((this.count + 1) * 2 > this.values.length) this.grow();
    let i = this.home(id);
    for (;;) {
      const value = this.values[i] as number;
      if (value === EMPTY) {
        this.keys[i] = id;
        this.values[i] = slot;
        this.count += 1;
        return;
      }
      if (this.keys[i] === id) {
        this.values[i] = slot;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  delete(id: number): boolean {
    let i = this.home(id);
    for (;;) {
      const value = this.values[i] as number;
      if (value === EMPTY) return false;
      if (this.keys[i] === id) break;
      i = (i + 1) & this.mask;
    }
    // Backward-shift: pull later entries of the probe run into the hole so lookups never need tombstones.
    let hole = i;
    let j = (i + 1) & this.mask;
    while ((this.values[j] as number) !== EMPTY) {
      const home = this.home(this.keys[j] as number);
      const distanceFromHome = (j - home) & this.mask;
      const distanceFromHole = (j - hole) & this.mask;
      if (distanceFromHome >= distanceFromHole) {
        this.keys[hole] = this.keys[j] as number;
        this.values[hole] = this.values[j] as number;
        hole = j;
      }
      j = (j + 1) & this.mask;
    }
    this.values[hole] = EMPTY;
    this.count -= 1;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.values = new Int32Array(oldValues.length * 2).fill(EMPTY);
    this.mask = this.values.length - 1;
    this.count = 0;
    for (let i = 0; i < oldValues.length; i++) {
      const value = oldValues[i] as number;
      if (value !== EMPTY) this.set(oldKeys[i] as number, value);
    }
  }
}
