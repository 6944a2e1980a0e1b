// axe-core in the browser for the browser tests: WCAG 2.0/2.1 A and AA violations of a page as it is
// now, and which of them block (any contrast failure, anything serious or critical). Shared by
// web-a11y.e2e.test.ts and the feature tests that check their own screens.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type Violation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary: string }[];
};

// Code run in the page is written as text: this project's type check has no DOM library (as web-perf).
const RUN_AXE = `async (scope) => {
  const result = await window.axe.run(scope ? document.querySelector(scope) : document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary ?? '' })),
  }));
}`;

/** axe-core's violations of WCAG 2.0/2.1 A and AA on the page as it is now (or inside `selector`). */
export async function axeViolations(page: Page, selector?: string): Promise<Violation[]> {
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(AXE);
  return page.evaluate(`(${RUN_AXE})(${JSON.stringify(selector ?? null)})`);
}

/** What must not be there: any contrast failure, and anything axe rates serious or critical. */
export function blocking(violations: Violation[]): Violation[] {
  return violations.filter((v) => v.id === 'color-contrast' || v.impact === 'serious' || v.impact === 'critical');
}

export const describeViolations = (violations: Violation[]) =>
  violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.summary}`).join('\n')}`,
    )
    .join('\n');
