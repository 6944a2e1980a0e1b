// Owns the map from user id (a string) to user index: open addressing with linear probing over a
// typed array of [hash, index] pairs, the ids themselves kept once, in index order.
// Why not a Map: looking up a user id that arrived in a command (a string the engine has never seen,
// as every decoded or parsed id is) made V8's Map read the bucket, the entry and the stored key's
// string, scattered over the heap: about half of placeOrder's own time in a replay's profile. Here a
// probe reads one small array, and only the one candidate whose hash matches is compared as a string
// (that string is still read).
// Must hold: get(id) is the index given to id by add(), or -1; indexes are 0, 1, 2… in order of add().
// Must not: forget an id (users are never removed).

const EMPTY = -1;

export class UserIndex {
  /** Per position: the id's hash at 2 × position and its index (EMPTY: none) at 2 × position + 1. */
  private table: Int32Array;
  private mask: number;
  private readonly ids: string[] = [];

  constructor(initialCapacity = 1024) {
    let positions = 16;
    while (positions < initialCapacity * 2) positions *= 2;
    this.table = emptyTable(positions);
    this.mask = positions - 1;
  }

  get size(): number {
    return this.ids.length;
  }

  /** The index of `id`, or -1 (also for anything that is not a string, as a Map would find nothing). */
  get(id: string): number {
    if (typeof id !== 'string') return EMPTY;
    const hash = hashOf(id);
    const table = this.table;
    const mask = this.mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const index = table[2 * i + 1] as number;
      if (index === EMPTY) return EMPTY;
      if (table[2 * i] === hash && this.ids[index] === id) return index;
    }
  }

  /** Gives `id` (not yet known) the next index and returns it. */
  add(id: string): number {
    if (this.get(id) !== EMPTY) throw new Error(`user index: ${id} is already known`);
    const index = this.ids.length;
    this.ids.push(id);
    if (2 * this.ids.length > this.mask + 1) this.grow();
    else this.place(hashOf(id), index);
    return index;
  }

  private place(hash: number, index: number): void {
    const table = this.table;
    const mask = this.mask;
    let i = hash & mask;
    while ((table[2 * i + 1] as number) !== EMPTY) i = (i + 1) & mask;
    table[2 * i] = hash;
    table[2 * i + 1] = index;
  }

  private grow(): void {
    const positions = 2 * (this.mask + 1);
    this.table = emptyTable(positions);
    this.mask = positions - 1;
    for (let index = 0; index < this.ids.length; index++) this.place(hashOf(this.ids[index] as string), index);
  }
}

/** FNV-1a over the UTF-16 code units, then a final mix so that the low bits (the home position) vary. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < id.length; k++) h = Math.imul(h ^ id.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

function emptyTable(positions: number): Int32Array {
  return new Int32Array(2 * positions).fill(EMPTY);
}
