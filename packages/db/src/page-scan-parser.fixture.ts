// A PageParser for page-scan.test.ts: what it makes of a page says where it ran.

import { threadId } from 'node:worker_threads';

export function lengthsOf(texts: string[]): { lengths: Int32Array; threadId: number } {
  return { lengths: Int32Array.from(texts, (text) => text.length), threadId };
}
