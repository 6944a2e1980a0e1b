import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES, type Command, decodeCommand, encodeCommand } from './commands.ts';
import { Engine } from './engine.ts';
import { FAMILIES, FAMILY_HANDLERS } from './families.ts';
import { ENGINE_REJECTIONS } from './rejections.ts';

describe('command families', () => {
  it('gives the engine every family command, journal code and rejection from the family list', () => {
    for (const family of FAMILIES) {
      for (const [type, spec] of Object.entries(family.commands)) {
        expect(COMMAND_TYPES).toContain(type);
        expect(FAMILY_HANDLERS.get(type)).toBe(spec.apply);
        const command = { id: 'c1', timeMs: 1, type } as unknown as Command;
        const line = encodeCommand(command);
        // Compact, under the family's own type code, and read back as it was.
        expect(line.slice(0, 2)).toBe(`~${spec.code}`);
        expect(decodeCommand(line)).toEqual(command);
      }
      for (const code of family.rejections) expect(ENGINE_REJECTIONS).toContain(code);
    }
  });

  it('has no two families or core commands share a type, type code or rejection', () => {
    const codes = FAMILIES.flatMap((family) => Object.values(family.commands).map((spec) => spec.code));
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(COMMAND_TYPES).size).toBe(COMMAND_TYPES.length);
    expect(new Set(ENGINE_REJECTIONS).size).toBe(ENGINE_REJECTIONS.length);
  });

  it('dispatches a family command to its handler, and an unknown type is still invalid_command', () => {
    const engine = new Engine();
    const registered = engine.apply({
      id: 'a1',
      timeMs: 1,
      type: 'register_asset',
      asset: 'PEPE',
      scale: 18,
      kind: 'crypto',
    });
    expect(registered.ok).toBe(true);
    expect(engine.asset('PEPE')?.scale).toBe(18);
    const unknown = engine.apply({ id: 'a2', timeMs: 2, type: 'no_such_command' } as unknown as Command);
    expect(unknown).toEqual({ ok: false, code: 'invalid_command' });
  });
});
