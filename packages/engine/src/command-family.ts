// Owns the shape of a command family: what a module declares so that the engine, the journal codec and
// the rejection list learn its commands from one entry in families.ts instead of naming each one.
// Must hold: a type code or key code, once journaled, never changes or is reused (commands.ts's format).
// Must not: import engine values (only types): families.ts is read while commands.ts and rejections.ts load.

import type { ApplyResult, EngineState } from './engine-state.ts';

/** How a key's value is written in a compact journal line (commands.ts). */
export const STR = 0;
export const NUM = 1;
export const BOOL = 2;
export const JSONV = 3;
/** A value from a closed set, coded in the key codes; `type`'s value is the line's type. */
export const CONST = 4;
export type Kind = typeof STR | typeof NUM | typeof BOOL | typeof JSONV | typeof CONST;

/** A key's one-character journal code and how its value is written (for a closed set: its values, coded 0, 1, 2…). */
export type KeyCode = readonly [code: string, kind: Kind, values?: readonly string[]];

/** What every command carries (commands.ts explains both). */
export type CommandBase = { id: string; timeMs: number };

/** One command of a family: its journal type code, its keys after id and timeMs, and its handler. */
export type CommandSpec<C> = {
  /** The character after `~` in a compact journal line: unique over all commands, never reused. */
  readonly code: string;
  /** The command's own keys (not id, timeMs or type), each coded in the family's or commands.ts's keys. */
  readonly keys: readonly Exclude<keyof C, keyof CommandBase | 'type'>[];
  /** Applies it: events (or WRITTEN) on success, a rejection otherwise; deterministic (engine.ts). */
  readonly apply: (state: EngineState, command: C) => ApplyResult;
};

/**
 * State a family keeps of its own, as one key of the snapshot (snapshot.ts writes the families' keys
 * after its own, in FAMILIES order, and hands each back on restore once accounts, users and orders are
 * restored). `save` answers JSON-safe data, or undefined when there is nothing to keep: the key is then
 * absent, so states without the family's state keep the hash they had before the family existed.
 */
export type FamilySection = {
  readonly key: string;
  readonly save: (state: EngineState) => unknown;
  readonly restore: (state: EngineState, saved: unknown) => void;
};

/**
 * A family of commands owned by one module. `C` is the union of its command types; the engine's
 * Command union is derived from the family list (families.ts), so it stays exact.
 */
export type CommandFamily<C extends CommandBase & { type: string }, R extends string = string> = {
  readonly name: string;
  readonly commands: { readonly [T in C['type']]: CommandSpec<Extract<C, { type: T }>> };
  /** Keys new with this family (a key another command has already is coded in commands.ts). */
  readonly keys: { readonly [key: string]: KeyCode };
  /** The rejection codes new with this family (closed: each needs its messages in contract/errors.ts). */
  readonly rejections: readonly R[];
  /** Its own state in the snapshot (and so in the state hash), if it keeps any. */
  readonly section?: FamilySection;
  /** Never set: carries the command type for the family list's type (CommandOf). */
  readonly commandType?: C;
};

/** Declares a family with its command union checked against its handlers. */
export function defineFamily<C extends CommandBase & { type: string }, const R extends string = never>(
  family: CommandFamily<C, R>,
): CommandFamily<C, R> {
  return family;
}

/** The command union of a family. */
export type CommandOf<F> = F extends { readonly commandType?: infer C } ? Exclude<C, undefined> : never;
/** The rejection codes of a family. */
export type RejectionOf<F> = F extends { readonly rejections: readonly (infer R)[] } ? R : never;
