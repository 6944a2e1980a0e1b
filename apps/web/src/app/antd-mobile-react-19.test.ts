import { describe, expect, it } from 'vitest';

// Every source file of the app, as text (vite's glob import: no Node APIs in the app's tests).
const sources = import.meta.glob<string>(['../**/*.ts', '../**/*.tsx', '!../**/*.test.ts', '!../**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

// antd-mobile's views that mount themselves (renderToBody / renderImperatively) rather than render in the tree.
const imperative =
  /\b(Toast\.(show|clear)|Dialog\.(show|alert|confirm|clear)|Modal\.(show|alert|confirm|clear)|ActionSheet\.show|ImageViewer(\.Multi)?\.show|(Cascade)?Picker\.prompt|DatePicker\.prompt|Cascader\.prompt)\(/;

describe('antd-mobile under React 19', () => {
  it('is set up by every module that shows an imperative antd-mobile view', () => {
    const callers = Object.entries(sources).filter(
      ([path, text]) => imperative.test(text) && !path.endsWith('/toast.ts'),
    );
    expect(callers.length).toBeGreaterThan(5);
    const missing = callers.filter(([, text]) => !/import '[./]+(app\/)?antd-mobile-react-19\.ts';/.test(text));
    expect(missing.map(([path]) => path)).toEqual([]);
  });

  it('is loaded with Toast by the request layer, which keeps antd-mobile out of the first load', () => {
    expect(sources['./toast.ts']).toMatch(/import\('\.\/antd-mobile-react-19\.ts'\)/);
  });
});
