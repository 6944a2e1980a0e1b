import { describe, expect, it } from 'vitest';
import { builtPages, extraPages, specPages } from './pages.ts';

// Every SPEC §2 screen (and each page the app adds) has its screen: no route falls back to a placeholder.
describe('pages', () => {
  const all = [...Object.entries(specPages), ...Object.entries(extraPages)].flatMap(([group, names]) =>
    names.map((name) => `${group}/${name}`),
  );

  it('has a built screen for every page', () => {
    expect(all.filter((key) => !(key in builtPages))).toEqual([]);
  });

  it('builds no screen that is not a page', () => {
    expect(Object.keys(builtPages).filter((key) => !all.includes(key))).toEqual([]);
  });
});
