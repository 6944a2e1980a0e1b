// Owns noop_note, a throwaway family (a scratch commit that counts the files a new family touches).
// Must hold: a note changes no state. Must not: move money.

import { type CommandBase, defineFamily, STR } from './command-family.ts';
import type { ApplyResult, EngineState } from './engine-state.ts';
import { rejected } from './engine-state.ts';

export type NoopNote = CommandBase & { type: 'noop_note'; text: string };

function noopNote(_state: EngineState, command: NoopNote): ApplyResult {
  if (typeof command.text !== 'string' || command.text.length > 140) return rejected('note_too_long');
  return { ok: true, events: [{ type: 'note_recorded', text: command.text, timeMs: command.timeMs }] };
}

export const NOTES_FAMILY = defineFamily<NoopNote, 'note_too_long'>({
  name: 'notes',
  commands: { noop_note: { code: 'E', keys: ['text'], apply: noopNote } },
  keys: { text: ['x', STR] },
  rejections: ['note_too_long'],
});
