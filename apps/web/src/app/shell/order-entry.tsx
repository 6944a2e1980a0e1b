// Pieces shared by the order forms (stocks and crypto): the price/quantity stepper with a decimal keypad,
// a debounced value for the fee preview, and the confirmation sheet that asks for the 6-digit
// transaction password (antd-mobile PasscodeInput with NumberKeyboard on touch screens). The sheet keeps
// the order's idempotency key for a retry after a lost answer and renews it after any answer.

import { stepDecimal } from '@bourse/money';
import { useMutation } from '@tanstack/react-query';
import { Dialog, NumberKeyboard, PasscodeInput, type PasscodeInputRef, Popup, SpinLoading } from 'antd-mobile';
import '../antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { sanitizeDecimalInput } from '../../lib/decimal-input.ts';
import { ApiError, NetworkError, newIdempotencyKey } from '../request.ts';
import { useEscape } from './use-escape.ts';

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function isTouchDevice(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(pointer: coarse)').matches === true;
}

export function Stepper({
  id,
  label,
  value,
  onChange,
  step,
  maxDecimals,
  error,
  placeholder,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  step: string;
  maxDecimals: number;
  error?: string;
  placeholder?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="stepper-field">
      <label className="stepper-field__label" htmlFor={id}>
        {label}
      </label>
      <div className={error ? 'stepper stepper--error' : 'stepper'}>
        <button
          type="button"
          className="stepper__btn"
          aria-label={t('trading.decrease', { field: label })}
          disabled={disabled}
          onClick={() => onChange(stepDecimal(value, step, -1))}
        >
          −
        </button>
        <input
          id={id}
          className="stepper__input tabular"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(sanitizeDecimalInput(event.target.value, maxDecimals))}
          data-testid={`${id}-input`}
        />
        <button
          type="button"
          className="stepper__btn"
          aria-label={t('trading.increase', { field: label })}
          disabled={disabled}
          onClick={() => onChange(stepDecimal(value, step, 1))}
        >
          +
        </button>
      </div>
      {error && (
        <p className="stepper-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The confirmation sheet of an order: its rows (price, quantity, fee, total…), an optional notice, then
 * the transaction password. `submit` gets the password and the idempotency key to send; `orderKey` is
 * the key made when the sheet opened.
 */
interface PasscodeConfirmProps<T> {
  isOpen: boolean;
  orderKey: string;
  rows: readonly (readonly [string, ReactNode])[];
  notice?: ReactNode;
  submit: (password: string, idempotencyKey: string) => Promise<T>;
  onDone: (result: T) => void;
  onClose: () => void;
}

export function PasscodeConfirmSheet<T>(props: PasscodeConfirmProps<T>) {
  // Mounted afresh for each order (keyed by its idempotency key): a password typed for the last order
  // must never be in the box when the next one opens (a full box submits at once).
  return props.isOpen ? <OpenPasscodeSheet key={props.orderKey} {...props} /> : null;
}

function OpenPasscodeSheet<T>({ isOpen, orderKey, rows, notice, submit, onDone, onClose }: PasscodeConfirmProps<T>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isTouch = useMemo(isTouchDevice, []);
  const [passcode, setPasscode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [canRetry, setCanRetry] = useState(false);
  // Kept for a retry after a lost answer, renewed after any answer (a new attempt is a new order; the
  // server would answer a refused key's refusal again).
  const [renewedKey, setRenewedKey] = useState<string | null>(null);
  const passcodeRef = useRef<PasscodeInputRef>(null);
  useEffect(() => {
    // Open the keypad once the sheet has slid in.
    const timer = setTimeout(() => passcodeRef.current?.focus(), 350);
    return () => clearTimeout(timer);
  }, []);
  const mutation = useMutation({
    mutationFn: (password: string) => submit(password, renewedKey ?? orderKey),
    onSuccess: (data) => onDone(data),
    onError: (cause) => {
      setPasscode('');
      if (cause instanceof NetworkError) {
        setError(cause.message);
        setCanRetry(true);
        return;
      }
      setCanRetry(false);
      setRenewedKey(newIdempotencyKey());
      if (cause instanceof ApiError && cause.error === 'trade_password_not_set') {
        void Dialog.confirm({
          title: t('trading.setTradePasswordTitle'),
          content: cause.message,
          confirmText: t('trading.setTradePassword'),
          cancelText: t('common.cancel'),
        }).then((isConfirmed) => {
          if (isConfirmed) navigate('/pages/user/tradePassword');
        });
        onClose();
        return;
      }
      setError(cause instanceof Error ? cause.message : String(cause));
    },
  });
  const isPending = mutation.isPending;
  useEscape(isOpen && !isPending, onClose);
  return (
    <Popup
      visible={isOpen}
      onMaskClick={isPending ? undefined : onClose}
      onClose={onClose}
      destroyOnClose
      bodyClassName="sheet"
    >
      <div role="dialog" aria-modal="true" aria-label={t('trading.confirmTitle')} data-testid="confirm-sheet">
        <div className="sheet__head">
          <h2 className="sheet__title">{t('trading.confirmTitle')}</h2>
          <button type="button" className="text-button" onClick={onClose} disabled={isPending}>
            {t('common.close')}
          </button>
        </div>
        <div className={isTouch ? 'sheet__body confirm confirm--keyboard' : 'sheet__body confirm'}>
          <dl className="confirm__rows">
            {rows.map(([label, value]) => (
              <div key={label} className="confirm__row">
                <dt>{label}</dt>
                <dd className="tabular">{value}</dd>
              </div>
            ))}
          </dl>
          {notice}
          <p className="passcode-form__prompt" id="order-passcode-prompt">
            {t('trading.enterTradePassword')}
          </p>
          <div className="confirm__passcode">
            <PasscodeInput
              ref={passcodeRef}
              length={6}
              plain={false}
              seperated
              value={passcode}
              onChange={(value) => {
                setPasscode(value);
                if (value) setError(null);
              }}
              onFill={(value) => {
                if (!mutation.isPending) mutation.mutate(value);
              }}
              keyboard={isTouch ? <NumberKeyboard /> : undefined}
              aria-labelledby="order-passcode-prompt"
              data-testid="order-passcode"
            />
          </div>
          {isPending && (
            <p className="confirm__progress" role="status">
              <SpinLoading style={{ '--size': '18px' }} /> {t('trading.submitting')}
            </p>
          )}
          {error && (
            <div className="form-banner" role="alert" data-testid="order-error">
              {error}
              {canRetry && (
                <button type="button" className="text-button" onClick={() => setError(null)}>
                  {t('trading.retryHint')}
                </button>
              )}
            </div>
          )}
          <Link className="confirm__forgot" to="/pages/user/tradePassword">
            {t('trading.forgotTradePassword')}
          </Link>
        </div>
      </div>
    </Popup>
  );
}
