// The "decide with a reason" flow of the second-approval desks (adjustments, IPO, block trades,
// launchpad, robots, AI funds): the item and action a reason is being asked for, the reason dialog
// with the desk's texts for that action, the desk's call, then the toast, the closing and the refetch
// of what the decision changed and of the audit log that records it. A refusal from the server stays
// in the dialog (ReasonModal shows it) and nothing else happens.
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDecision } from './decision-queue.tsx';
import { ReasonModal } from './reason-modal.tsx';
import { SecondApprovalButtons } from './second-approval.tsx';

export interface DecisionDialogSpec<T, A extends string> {
  /**
   * The desk's messages: the dialog's title is `${ns}.${action}Title`, its button `${ns}.${action}`;
   * the approve / reject pair says `${ns}.approve`, `${ns}.reject` and `${ns}.notYourOwn`.
   */
  ns: string;
  /** The approve / reject pair's test ids are `${testIdPrefix}-approve-${id}` and `…-reject-…`. */
  testIdPrefix: string;
  /** The title's placeholders for the item. */
  titleParams: (item: T) => Record<string, string | number>;
  /** What the dialog says about the item above the reason field. */
  body: (item: T, action: A) => ReactNode;
  /** The key, within ns, of the toast after each action. */
  done: Record<A, string>;
  /** The actions whose confirm button is red (a rejection by default). */
  dangerous?: readonly string[];
  /** The server call: resolves once the server accepted. */
  send: (item: T, action: A, reason: string) => Promise<unknown>;
  /** The queries the decision changes; the audit log's is always refetched too. */
  invalidates: readonly QueryKey[];
}

const AUDIT: QueryKey = ['audit'];

/** The message keys and colour of the dialog for one action. */
export function decisionTexts(spec: { ns: string; dangerous?: readonly string[] | undefined }, action: string) {
  return {
    titleKey: `${spec.ns}.${action}Title`,
    okKey: `${spec.ns}.${action}`,
    isDanger: (spec.dangerous ?? ['reject']).includes(action),
  };
}

/**
 * Sends the decision; only once the server accepted it: the toast, the dialog's closing and the
 * refetches. A refusal rejects before any of them, for the dialog to show.
 */
export async function runDecision<T, A extends string>(
  spec: Pick<DecisionDialogSpec<T, A>, 'ns' | 'done' | 'send' | 'invalidates'>,
  item: T,
  action: A,
  reason: string,
  effects: { toast: (key: string) => void; close: () => void; invalidate: (key: QueryKey) => void },
): Promise<void> {
  await spec.send(item, action, reason);
  effects.toast(`${spec.ns}.${spec.done[action]}`);
  effects.close();
  for (const key of [...spec.invalidates, AUDIT]) effects.invalidate(key);
}

/**
 * `open(item, action)` asks for a reason for that action; `dialog` is the element to render once;
 * `approvalButtons(item, isMine)` is an item's approve / reject pair, opening the dialog. Besides
 * approve and reject, a desk may decide `Other` actions (retire, run listing day) with its own buttons.
 */
export function useDecisionDialog<T extends { id: number | string }, Other extends string = never>(
  spec: DecisionDialogSpec<T, 'approve' | 'reject' | Other>,
) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const { deciding, isDialogOpen, decide, close } = useDecision<T, 'approve' | 'reject' | Other>();
  const texts = deciding && decisionTexts(spec, deciding.decision);
  const dialog = (
    <ReasonModal
      open={isDialogOpen}
      isDanger={texts?.isDanger ?? false}
      title={deciding && texts ? t(texts.titleKey, spec.titleParams(deciding.item)) : ''}
      body={deciding && <Typography.Paragraph>{spec.body(deciding.item, deciding.decision)}</Typography.Paragraph>}
      okText={texts ? t(texts.okKey) : ''}
      onCancel={close}
      onConfirm={async (reason) => {
        if (deciding === null) return;
        await runDecision(spec, deciding.item, deciding.decision, reason, {
          toast: (key) => void message.success(t(key)),
          close,
          invalidate: (queryKey) => void queryClient.invalidateQueries({ queryKey }),
        });
      }}
    />
  );
  const approvalButtons = (item: T, isMine: boolean) => (
    <SecondApprovalButtons
      isMine={isMine}
      notYourOwn={t(`${spec.ns}.notYourOwn`)}
      approveText={t(`${spec.ns}.approve`)}
      rejectText={t(`${spec.ns}.reject`)}
      onApprove={() => decide(item, 'approve')}
      onReject={() => decide(item, 'reject')}
      testIdPrefix={spec.testIdPrefix}
      testIdSuffix={item.id}
    />
  );
  return { open: decide, dialog, approvalButtons };
}
