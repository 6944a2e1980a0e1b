// The apps take their request and response shapes from this package and nothing else: they declare no
// type of their own under a name the contract exports (a copy drifts; one did), and they import only
// types from it, which the bundler erases (a value would bring zod and the phone metadata into them).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

function sources(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter(keep)
    .map((file) => join(dir, file));
}

const isAppSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name);
const appFiles = [...sources('apps/web/src', isAppSource), ...sources('apps/admin/src', isAppSource)];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

const contractTypes = new Set(
  sources('packages/contract/src', (name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).flatMap((file) =>
    [...read(file).matchAll(/^export (?:type|interface) (\w+)/gm)].map((match) => match[1] as string),
  ),
);

describe('the apps share the contract', () => {
  it('finds the contract and the apps', () => {
    expect(contractTypes).toContain('QuoteView');
    expect(contractTypes).toContain('StaffMeView');
    expect(appFiles.length).toBeGreaterThan(50);
  });

  it('declares no type under a name the contract exports', () => {
    const copies = appFiles.flatMap((file) =>
      // A declaration, not a `type X,` specifier of a multi-line import.
      [...read(file).matchAll(/^\s*(?:export )?(?:type (\w+)\s*[=<]|interface (\w+)\b)/gm)]
        .map((match) => (match[1] ?? match[2]) as string)
        .filter((name) => contractTypes.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(copies).toEqual([]);
  });

  it('imports only types from @bourse/contract', () => {
    const valueImports = appFiles.flatMap((file) =>
      [...read(file).matchAll(/^import (type )?\{([^}]*)\} from '@bourse\/contract';/gm)]
        .filter(
          ([, isTypeOnly, names]) => !isTypeOnly && (names as string).split(',').some((n) => !/^\s*(type\s|$)/.test(n)),
        )
        .map(() => file),
    );
    expect(valueImports).toEqual([]);
  });
});
