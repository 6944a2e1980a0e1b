// Owns the map from live order id to its record: what `Map<number, T>` did, in typed arrays. An
// open-addressing table of [id, slot] pairs (linear probing, backward-shift deletion) finds a record's
// slot; records sit in an array by slot with a stack of free slots, and each slot keeps the sequence
// number of its insertion, so values() can list them in insertion order (sorted; queries only) while
// set and delete touch no list.
// Must hold: iteration is in insertion order exactly as a Map's (setting a present id keeps its place;
// deleting and setting again moves it to the end); get() of anything but a live id is undefined.
// Must not: allocate per operation except when doubling its capacity.

export class OrderMap<T> {
  /** Per table position: the id (0 = empty; ids are >= 1) and slot + 1, side by side. */
  private table: Float64Array;
  private mask: number;
  private records: (T | undefined)[] = [];
  private ids: Float64Array;
  /** Insertion sequence number per slot (a Map's iteration order). */
  private seqs: Float64Array;
  private nextSeq = 0;
  private freeSlots: Int32Array;
  private freeCount = 0;
  private used = 0;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let capacity = 16;
    while (capacity < initialCapacity) capacity *= 2;
    this.table = new Float64Array(4 * capacity);
    this.mask = 2 * capacity - 1;
    this.ids = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.freeSlots = new Int32Array(capacity);
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

  /** The table position holding `id`, or -1. */
  private positionOf(id: unknown): number {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return -1;
    const table = this.table;
    let at = this.home(id);
    for (;;) {
      const key = table[2 * at] as number;
      if (key === id) return at;
      if (key === 0) return -1;
      at = (at + 1) & this.mask;
    }
  }

  get(id: unknown): T | undefined {
    const at = this.positionOf(id);
    return at === -1 ? undefined : this.records[(this.table[2 * at + 1] as number) - 1];
  }

  has(id: unknown): boolean {
    return this.positionOf(id) !== -1;
  }

  /** Sets the record of `id` (a safe integer >= 1); a new id goes to the end of the iteration order. */
  set(id: number, record: T): void {
    if (!Number.isSafeInteger(id) || id < 1) throw new Error(`order id ${id} is not a positive safe integer`);
    const found = this.positionOf(id);
    if (found !== -1) {
      this.records[(this.table[2 * found + 1] as number) - 1] = record;
      return;
    }
    if ((this.count + 1) * 2 > this.mask + 1) this.growTable();
    const slot = this.allocate();
    this.records[slot] = record;
    this.ids[slot] = id;
    this.seqs[slot] = this.nextSeq;
    this.nextSeq += 1;
    this.insert(id, slot);
    this.count += 1;
  }

  delete(id: unknown): boolean {
    const at = this.positionOf(id);
    if (at === -1) return false;
    const slot = (this.table[2 * at + 1] as number) - 1;
    this.removeAt(at);
    this.records[slot] = undefined;
    this.freeSlots[this.freeCount] = slot;
    this.freeCount += 1;
    this.count -= 1;
    return true;
  }

  /** The records in insertion order (a new array: the map may change afterwards). */
  values(): T[] {
    return this.matching(() => true);
  }

  /** The records for which `keep` is true, in insertion order. */
  matching(keep: (record: T) => boolean): T[] {
    const slots: number[] = [];
    let sorted = true;
    let lastSeq = -1;
    for (let slot = 0; slot < this.used; slot++) {
      const record = this.records[slot];
      if (record === undefined || !keep(record)) continue;
      const seq = this.seqs[slot] as number;
      if (seq < lastSeq) sorted = false;
      lastSeq = seq;
      slots.push(slot);
    }
    // Slots are reused, so slot order is insertion order only until the first reuse.
    if (!sorted) slots.sort((a, b) => (this.seqs[a] as number) - (this.seqs[b] as number));
    return slots.map((slot) => this.records[slot] as T);
  }

  private insert(id: number, slot: number): void {
    const table = this.table;
    let at = this.home(id);
    while (table[2 * at] !== 0) at = (at + 1) & this.mask;
    table[2 * at] = id;
    table[2 * at + 1] = slot + 1;
  }

  /** Empties table position `at`, shifting later entries of its probe run back (no tombstones). */
  private removeAt(at: number): void {
    const table = this.table;
    const mask = this.mask;
    let hole = at;
    let next = (hole + 1) & mask;
    for (;;) {
      const key = table[2 * next] as number;
      if (key === 0) break;
      const home = this.home(key);
      // Move the entry back into the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? hole < home && home <= next : hole < home || home <= next;
      if (!stays) {
        table[2 * hole] = key;
        table[2 * hole + 1] = table[2 * next + 1] as number;
        hole = next;
      }
      next = (next + 1) & mask;
    }
    table[2 * hole] = 0;
    table[2 * hole + 1] = 0;
  }

  private allocate(): number {
    if (this.freeCount > 0) {
      this.freeCount -= 1;
      return this.freeSlots[this.freeCount] as number;
    }
    if (this.used === this.ids.length) {
      const size = this.ids.length * 2;
      const ids = new Float64Array(size);
      ids.set(this.ids);
      const seqs = new Float64Array(size);
      seqs.set(this.seqs);
      const freeSlots = new Int32Array(size);
      freeSlots.set(this.freeSlots);
      this.ids = ids;
      this.seqs = seqs;
      this.freeSlots = freeSlots;
    }
    const slot = this.used;
    this.used += 1;
    return slot;
  }

  private growTable(): void {
    const positions = 2 * (this.mask + 1);
    this.table = new Float64Array(2 * positions);
    this.mask = positions - 1;
    for (let slot = 0; slot < this.used; slot++) {
      if (this.records[slot] !== undefined) this.insert(this.ids[slot] as number, slot);
    }
  }
}
