// Pieces shared by the order forms (stocks and crypto): the price/quantity stepper with a decimal keypad,
// a debounced value for the fee preview, and the confirmation sheet that asks for the 6-digit
// transaction password (antd-mobile PasscodeInput with NumberKeyboard on touch screens). The sheet keeps
// the order's idempotency key for a retry after a lost answer and renews it after any answer.

import { stepDecimal } from '@bourse/money';
import { useMutation } from '@tanstack/react-query';
import { Dialog, type PasscodeInputRef } from 'antd-mobile';
import '../antd-mobile-react-19.ts';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { sanitizeDecimalInput } from '../../lib/decimal-input.ts';
import { ApiError, NetworkError, newIdempotencyKey } from '../request.ts';
import { PasscodeSheet } from './passcode-sheet.tsx';

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
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
  return (
    <PasscodeSheet
      isOpen={isOpen}
      title={t('trading.confirmTitle')}
      rows={rows}
      notice={notice}
      prompt={t('trading.enterTradePassword')}
      passcode={passcode}
      passcodeRef={passcodeRef}
      onPasscodeChange={(value) => {
        setPasscode(value);
        if (value) setError(null);
      }}
      onFill={(value) => {
        if (!mutation.isPending) mutation.mutate(value);
      }}
      isPending={mutation.isPending}
      pendingText={t('trading.submitting')}
      error={
        error && (
          <>
            {error}
            {canRetry && (
              <button type="button" className="text-button" onClick={() => setError(null)}>
                {t('trading.retryHint')}
              </button>
            )}
          </>
        )
      }
      forgot={{ to: '/pages/user/tradePassword', label: t('trading.forgotTradePassword') }}
      onClose={onClose}
      testIds={{ dialog: 'confirm-sheet', passcode: 'order-passcode', error: 'order-error' }}
    />
  );
}
