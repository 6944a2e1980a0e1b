import { QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type DecisionDialogSpec, decisionTexts, runDecision, useDecisionDialog } from './decision-dialog.tsx';

type Item = { id: number };
type Action = 'approve' | 'reject' | 'retire';

/** A desk's spec whose server call records what it was sent and answers as told. */
function desk(answer: () => Promise<unknown>) {
  const sent: [Item, Action, string][] = [];
  return {
    sent,
    spec: {
      ns: 'robots',
      done: { approve: 'approved', reject: 'rejected', retire: 'retiredDone' } as Record<Action, string>,
      send: (item: Item, action: Action, reason: string) => {
        sent.push([item, action, reason]);
        return answer();
      },
      invalidates: [['robot-templates'], ['robot-runs']] as QueryKey[],
    },
  };
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    effects: {
      toast: (key: string) => events.push(`toast ${key}`),
      close: () => events.push('close'),
      invalidate: (key: QueryKey) => events.push(`invalidate ${JSON.stringify(key)}`),
    },
  };
}

describe('the decision dialog', () => {
  it("names its title and button after the desk's action, red for a rejection unless told otherwise", () => {
    expect(decisionTexts({ ns: 'ipo' }, 'list')).toEqual({
      titleKey: 'ipo.listTitle',
      okKey: 'ipo.list',
      isDanger: false,
    });
    expect(decisionTexts({ ns: 'ipo' }, 'reject').isDanger).toBe(true);
    expect(decisionTexts({ ns: 'ipo' }, 'approve').isDanger).toBe(false);
    const robots = { ns: 'robots', dangerous: ['reject', 'retire'] };
    expect(decisionTexts(robots, 'retire')).toEqual({
      titleKey: 'robots.retireTitle',
      okKey: 'robots.retire',
      isDanger: true,
    });
    expect(decisionTexts(robots, 'approve').isDanger).toBe(false);
  });

  it('sends the item, action and reason, then toasts, closes and refetches the desk and the audit log', async () => {
    const { sent, spec } = desk(async () => ({ ok: true }));
    const { events, effects } = recorder();
    await runDecision(spec, { id: 7 }, 'retire', 'no longer offered', effects);
    expect(sent).toEqual([[{ id: 7 }, 'retire', 'no longer offered']]);
    expect(events).toEqual([
      'toast robots.retiredDone',
      'close',
      'invalidate ["robot-templates"]',
      'invalidate ["robot-runs"]',
      'invalidate ["audit"]',
    ]);
  });

  it('does nothing after a refusal: the dialog stays open to show it', async () => {
    const refusal = new Error('A different staff member must decide');
    const { spec } = desk(() => Promise.reject(refusal));
    const { events, effects } = recorder();
    await expect(runDecision(spec, { id: 7 }, 'approve', 'looks right', effects)).rejects.toBe(refusal);
    expect(events).toEqual([]);
  });

  it("gives each item the shared approve / reject pair with the desk's test ids, disabled on the staff member's own", () => {
    let hook: ReturnType<typeof useDecisionDialog<Item, 'retire'>> | null = null;
    function Probe() {
      hook = useDecisionDialog<Item, 'retire'>({
        ...desk(async () => undefined).spec,
        testIdPrefix: 'robots',
        titleParams: (item) => ({ id: item.id }),
        body: () => 'body',
      } satisfies DecisionDialogSpec<Item, Action>);
      return null;
    }
    renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(Probe)));
    if (hook === null) throw new Error('the hook did not run');
    const { approvalButtons }: { approvalButtons: (item: Item, isMine: boolean) => ReactNode } = hook;
    const theirs = renderToStaticMarkup(createElement('div', null, approvalButtons({ id: 7 }, false)));
    expect(theirs).toContain('data-testid="robots-approve-7"');
    expect(theirs).toContain('data-testid="robots-reject-7"');
    expect(theirs).toContain('robots.approve');
    expect(theirs).not.toContain('disabled');
    const mine = renderToStaticMarkup(createElement('div', null, approvalButtons({ id: 8 }, true)));
    expect(mine.match(/disabled=""/g)).toHaveLength(2);
  });
});
