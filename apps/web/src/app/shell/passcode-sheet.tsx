// The bottom sheet that confirms a money action with a 6-digit password: what will happen as rows, an
// optional notice, the password boxes (antd-mobile PasscodeInput, with its NumberKeyboard on touch
// screens), progress, the error and a "forgot" link. Orders (transaction password) and withdrawals
// (withdrawal password) each keep their own sending and error handling and render this.
import { NumberKeyboard, PasscodeInput, type PasscodeInputRef, Popup, SpinLoading } from 'antd-mobile';
import '../antd-mobile-react-19.ts';
import { type ReactNode, type RefObject, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useEscape } from './use-escape.ts';

export function isTouchDevice(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches === true;
}

export interface PasscodeSheetProps {
  isOpen: boolean;
  title: string;
  rows: readonly (readonly [string, ReactNode])[];
  /** Extra class on each row's value (long addresses wrap). */
  valueClassName?: string;
  notice?: ReactNode;
  prompt: string;
  passcode: string;
  passcodeRef: RefObject<PasscodeInputRef | null>;
  onPasscodeChange: (value: string) => void;
  /** Called with all six digits. */
  onFill: (value: string) => void;
  isPending: boolean;
  pendingText: string;
  /** The error's text and what follows it (a retry button). */
  error: ReactNode;
  forgot: { to: string; label: string };
  onClose: () => void;
  /** Test ids: the dialog, the password boxes, the error banner. */
  testIds: { dialog: string; passcode: string; error: string };
}

export function PasscodeSheet(props: PasscodeSheetProps) {
  const { t } = useTranslation();
  const isTouch = useMemo(isTouchDevice, []);
  const { isOpen, isPending, onClose, testIds } = props;
  const promptId = `${testIds.passcode}-prompt`;
  useEscape(isOpen && !isPending, onClose);
  return (
    <Popup
      visible={isOpen}
      onMaskClick={isPending ? undefined : onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="sheet"
    >
      <div role="dialog" aria-modal="true" aria-label={props.title} data-testid={testIds.dialog}>
        <div className="sheet__head">
          <h2 className="sheet__title">{props.title}</h2>
          <button type="button" className="text-button" onClick={onClose} disabled={isPending}>
            {t('common.close')}
          </button>
        </div>
        <div className={isTouch ? 'sheet__body confirm confirm--keyboard' : 'sheet__body confirm'}>
          <dl className="confirm__rows">
            {props.rows.map(([label, value]) => (
              <div key={label} className="confirm__row">
                <dt>{label}</dt>
                <dd className={props.valueClassName ? `tabular ${props.valueClassName}` : 'tabular'}>{value}</dd>
              </div>
            ))}
          </dl>
          {props.notice}
          <p className="passcode-form__prompt" id={promptId}>
            {props.prompt}
          </p>
          <div className="confirm__passcode">
            <PasscodeInput
              ref={props.passcodeRef}
              length={6}
              plain={false}
              seperated
              value={props.passcode}
              onChange={props.onPasscodeChange}
              onFill={props.onFill}
              keyboard={isTouch ? <NumberKeyboard /> : undefined}
              aria-labelledby={promptId}
              data-testid={testIds.passcode}
            />
          </div>
          {isPending && (
            <p className="confirm__progress" role="status">
              <SpinLoading style={{ '--size': '18px' }} /> {props.pendingText}
            </p>
          )}
          {props.error && (
            <div className="form-banner" role="alert" data-testid={testIds.error}>
              {props.error}
            </div>
          )}
          <Link className="confirm__forgot" to={props.forgot.to}>
            {props.forgot.label}
          </Link>
        </div>
      </div>
    </Popup>
  );
}
