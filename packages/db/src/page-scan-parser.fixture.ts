// A PageParser for page-scan.test.ts: what it makes of a page says where it ran.

import { threadId } from 'node:worker_threads';

export function lengthsOf(texts: string[]): { lengths: Int32Array; threadId: number } {
  return { lengths: Int32Array.from(texts, (text) => text.length), threadId };
}

export function failing(_texts: string[]): never {
  throw new Error('this parser always fails');
}

/** A view of part of a buffer (as a pooled Buffer is): it must be copied, not transferred. */
export function partOfABuffer(texts: string[]): { lengths: Int32Array } {
  const scratch = new Int32Array(texts.length + 8);
  for (let i = 0; i < texts.length; i++) scratch[i + 4] = (texts[i] as string).length;
  return { lengths: scratch.subarray(4, 4 + texts.length) };
}
