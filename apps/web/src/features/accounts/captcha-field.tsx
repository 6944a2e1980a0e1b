// The registration captcha: ALTCHA's widget solving the server's proof-of-work challenge in web workers
// (nothing to read or type). Its solution is the form's captchaCode; a new challenge (the old one is
// spent or expired) clears it and starts solving again. The widget loads with this page only.
import type { CaptchaView } from '@bourse/contract';
import type {} from 'altcha/types/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

type AltchaElement = HTMLElement & {
  configure: (config: Record<string, unknown>) => Promise<void>;
  verify: () => Promise<unknown>;
  reset: () => void;
};

let widgetLoaded: Promise<void> | undefined;
/** The widget without its bundled workers (CSP: workers from our own origin only) and its two languages. */
function loadWidget(): Promise<void> {
  widgetLoaded ??= (async () => {
    await import('altcha/external');
    await import('altcha/altcha.css');
    await Promise.all([import('altcha/i18n/en'), import('altcha/i18n/pt-br')]);
    const { default: Pbkdf2Worker } = await import('altcha/workers/pbkdf2?worker');
    globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  })();
  return widgetLoaded;
}

export function CaptchaField(props: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  captcha: CaptchaView | undefined;
}) {
  const { i18n } = useTranslation();
  const ref = useRef<AltchaElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const language = i18n.language === 'pt-BR' ? 'pt-br' : 'en';

  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const onState = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onChange.current?.(state === 'verified' && payload ? payload : '');
    };
    widget.addEventListener('statechange', onState);
    return () => widget.removeEventListener('statechange', onState);
  }, []);

  useEffect(() => {
    const widget = ref.current;
    const challenge = props.captcha?.challenge;
    if (!widget || !challenge) return;
    let stale = false;
    void loadWidget().then(async () => {
      if (stale) return;
      await widget.configure({ challenge, language, hideFooter: true, minDuration: 0 });
      widget.reset();
      // Solving starts at once: it takes a moment, and the form is not sent without it.
      if (!stale) await widget.verify();
    });
    return () => {
      stale = true;
    };
  }, [props.captcha, language]);

  return (
    <div className="captcha" data-testid="captcha" data-solved={props.value ? 'true' : 'false'}>
      <altcha-widget ref={ref} id={props.id} name="altcha" />
    </div>
  );
}
