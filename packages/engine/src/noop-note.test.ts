import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';

describe('noop_note', () => {
  it('records a note and refuses a long one, journaled compactly', () => {
    const engine = new Engine();
    const hash = engine.stateHash();
    expect(engine.apply({ id: 'n1', timeMs: 1, type: 'noop_note', text: 'hi' })).toEqual({
      ok: true,
      events: [{ type: 'note_recorded', text: 'hi', timeMs: 1 }],
    });
    expect(engine.apply({ id: 'n2', timeMs: 2, type: 'noop_note', text: 'x'.repeat(141) })).toEqual({
      ok: false,
      code: 'note_too_long',
    });
    expect(engine.stateHash()).not.toBe(hash); // the idempotency window remembers them
    const line = encodeCommand({ id: 'n1', timeMs: 1, type: 'noop_note', text: 'hi' });
    expect(line).toBe('~Eityx\tn1\t1\thi');
    expect(decodeCommand(line)).toEqual({ id: 'n1', timeMs: 1, type: 'noop_note', text: 'hi' });
  });
});
