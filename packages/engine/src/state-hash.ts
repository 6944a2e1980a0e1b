// Owns the state hash (one version, STATE_HASH_PREFIX; nothing is deployed, so no older hash is checked:
// issue 22). Must hold: hashState(state) === hashSnapshot(takeSnapshot(state)), also for that snapshot
// after a JSON round trip and for the state restored from it; the stream hashed is injective over what
// the snapshot records; the hash is the same on every platform. Must not: depend on object identity, or
// on anything the snapshot does not record.
//
// MurmurHash3 x86_128 (hash.ts) over the snapshot's parts (snapshot.ts, SnapshotParts), as 32-bit words:
// the JSON of the snapshot without its window, the number of remembered commands, the JSON of the
// window's ids, commands and distinct references (`values`), then the per-entry counts, the results'
// numbers (each float64 as its little-endian bytes) and the reference indexes, each array after its
// length. A text goes in as its length in UTF-8 bytes, then those bytes (feedText). Why: the window is
// hashed in the form the command memory keeps and the snapshot stores (nothing decoded), and the
// snapshot's own JSON text is the canonical encoding of the rest (the same after a round trip). At
// 100,000 remembered commands that is ~35 MB of text and ~20 MB of arrays, ~30 ms. How the memory stores
// a result depends on the result alone (settleFill marks a fill the same on both paths), so the hash is
// a function of the state. Not cryptographic: it detects divergence, not tampering.

import type { EngineState } from './engine-state.ts';
import { Murmur3x128 } from './hash.ts';
import {
  type EngineSnapshot,
  partsOfSnapshot,
  SNAPSHOT_VERSION,
  type SnapshotParts,
  snapshotParts,
} from './snapshot.ts';

/** The state hash's prefix (32 hex digits follow); v5 since issue 22 (the asset list, one version). */
export const STATE_HASH_PREFIX = 'v5:';

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The hash of a snapshot's parts (see the top of this file). */
export function hashParts(parts: SnapshotParts): string {
  const hasher = new Murmur3x128();
  feedText(hasher, parts.body);
  hasher.word(parts.counts.length / 2);
  feedText(hasher, parts.ids);
  feedText(hasher, parts.commands);
  feedText(hasher, parts.values);
  hasher.word(parts.counts.length);
  hasher.words(parts.counts);
  hasher.word(parts.nums.length);
  hasher.words(littleEndianWords(parts.nums));
  hasher.word(parts.refs.length);
  hasher.words(parts.refs);
  return STATE_HASH_PREFIX + hasher.digest();
}

/** Text is turned into bytes this much at a time (the common, ASCII case), in one reused buffer. */
const TEXT_CHUNK = 1 << 20;
let textScratch: Int32Array<ArrayBuffer> | undefined;

/**
 * Feeds a JSON text: its length in UTF-8 bytes, then those bytes as little-endian 32-bit words, the
 * last one padded with zeros. The texts are JSON.stringify's, which escapes lone surrogates, so UTF-8
 * loses nothing. An ASCII text (UTF-8 length = UTF-16 length) is copied out as Latin-1, the same bytes
 * (a memory copy: ~10 times faster than reading it a character at a time).
 */
function feedText(hasher: Murmur3x128, text: string): void {
  const length = Buffer.byteLength(text, 'utf8');
  hasher.word(length);
  if (length !== text.length) {
    const words = new Int32Array((length + 3) >> 2);
    const bytes = Buffer.from(words.buffer);
    bytes.write(text, 'utf8');
    if (!LITTLE_ENDIAN) bytes.swap32();
    hasher.words(words);
    return;
  }
  textScratch ??= new Int32Array(TEXT_CHUNK / 4);
  const scratch = textScratch;
  const bytes = Buffer.from(scratch.buffer);
  for (let at = 0; at < length; at += TEXT_CHUNK) {
    const n = Math.min(TEXT_CHUNK, length - at);
    bytes.write(text.slice(at, at + n), 0, n, 'latin1');
    const padded = (n + 3) & ~3;
    bytes.fill(0, n, padded);
    const view = bytes.subarray(0, padded);
    if (!LITTLE_ENDIAN) view.swap32();
    hasher.words(scratch.subarray(0, padded >> 2));
  }
}

/** The hash of a snapshot (as taken, or as parsed back from its JSON); a snapshot of another format throws. */
export function hashSnapshot(snapshot: EngineSnapshot): string {
  if (snapshot?.version !== SNAPSHOT_VERSION)
    throw new Error(`snapshot format ${String(snapshot?.version)} is not this engine's (${SNAPSHOT_VERSION})`);
  return hashParts(partsOfSnapshot(snapshot));
}

/** The state hash: hashSnapshot(takeSnapshot(state)), from the state's parts (no snapshot object). */
export function hashState(state: EngineState): string {
  return hashParts(snapshotParts(state));
}

/** The words of the float64s' little-endian bytes (low word first), as values. */
function littleEndianWords(nums: Float64Array): Int32Array {
  const words = new Int32Array(nums.buffer, nums.byteOffset, nums.length * 2);
  if (LITTLE_ENDIAN) return words;
  const swapped = new Int32Array(words.length);
  for (let i = 0; i < words.length; i += 2) {
    swapped[i] = words[i + 1] as number;
    swapped[i + 1] = words[i] as number;
  }
  return swapped;
}
