// Support (SPEC user/service, user/serviceJs, common/service, common/serviceJs; decision 0041).
// user/service is the built-in chat: the conversation's history in bubbles with their chat times
// (SPEC §9, the market's time zone), text and image messages (checked by the server as KYC photos),
// support's typing, and delivered/read ticks on the customer's own messages; opening it reads what
// support wrote. common/service (signed out) says how support works and offers sign-in. The serviceJs
// pages host the external widget when the deployment sets one (serviceSaleSmartly: its script loaded,
// its floating icon hidden), and otherwise open the built-in chat.

import type { ChatMessage, ChatView } from '@bourse/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, TextArea } from 'antd-mobile';
import '../../app/antd-mobile-react-19.ts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { apiPost, useLoginInfo, usePlatformProps } from '../../app/api.ts';
import { loginPath } from '../../app/navigation.ts';
import { useSession } from '../../app/session.ts';
import { Page } from '../../app/shell/page.tsx';
import { PrivateImage } from '../../app/shell/private-image.tsx';
import { useDeploymentTimeZone } from '../../app/use-deployment-time-zone.ts';
import { liveClient } from '../../app/use-live.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { formatChatTime } from '../../lib/time.ts';
import { RequireLogin } from '../accounts/security-page.tsx';
import { ErrorState, SkeletonRows } from '../markets/market-ui.tsx';
import { chatKeys, newClientId, useChat, useChatChannel, useChatLive } from './chat-api.ts';
import { loadExternalWidget, openExternalWidget } from './external-widget.ts';
import './chat.css';

const TYPING_SHOWN_MS = 4_000;
const TYPING_SENT_EVERY_MS = 2_000;

const asDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

function Ticks({ m }: { m: ChatMessage }) {
  const { t } = useTranslation();
  const state = m.read ? 'read' : m.delivered ? 'delivered' : 'sent';
  return (
    <span
      role="img"
      className={`chat-ticks chat-ticks--${state}`}
      aria-label={t(`chat.state.${state}`)}
      data-testid="chat-ticks"
    >
      {state === 'sent' ? '✓' : '✓✓'}
    </span>
  );
}

function Bubble({ m, now, timeZone }: { m: ChatMessage; now: number; timeZone: string }) {
  const { t } = useTranslation();
  const mine = m.author === 'customer';
  return (
    <li className={mine ? 'chat-row chat-row--mine' : 'chat-row'} data-testid={`chat-message-${m.author}`}>
      <div className="chat-bubble">
        {!mine && <div className="chat-bubble__who">{t('chat.support')}</div>}
        {m.imageId !== null && (
          <PrivateImage path={`/user/chat/image/${m.imageId}`} alt={t('chat.image')} testId="chat-image" />
        )}
        {m.text && <p className="chat-bubble__text">{m.text}</p>}
        <div className="chat-bubble__meta">
          <time className="tabular">{formatChatTime(m.createdAt, now, currentLanguage(), timeZone)}</time>
          {mine && <Ticks m={m} />}
        </div>
      </div>
    </li>
  );
}

function ChatScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const timeZone = useDeploymentTimeZone();
  const channel = useChatChannel();
  const [typingUntil, setTypingUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useChatLive(() => setTypingUntil(Date.now() + TYPING_SHOWN_MS));
  const chat = useChat();
  const [text, setText] = useState('');
  const [clientId, setClientId] = useState(newClientId);
  const typedAt = useRef(0);
  const listEnd = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // The typing label and the chat times follow the clock.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  const send = useMutation({
    mutationFn: (body: { text?: string; image?: string; clientId: string }) =>
      apiPost<ChatMessage>('/user/chat/message', body),
    onSuccess: (_, body) => {
      if (body.text !== undefined) setText('');
      // A new id only once the server has the message: a retry of a failed send keeps its id.
      setClientId(newClientId());
      void queryClient.invalidateQueries({ queryKey: chatKeys.chat });
    },
  });

  const messages = chat.data?.messages ?? [];
  const lastId = messages.at(-1)?.id;
  const unread = chat.data?.unread ?? 0;
  // Reading the screen reads support's messages.
  useEffect(() => {
    if (!lastId || unread === 0) return;
    void apiPost<{ unread: number }>('/user/chat/read', { upTo: lastId }, { isSilent: true })
      .then((answer) => {
        queryClient.setQueryData(chatKeys.unread, answer);
        return queryClient.invalidateQueries({ queryKey: chatKeys.chat });
      })
      .catch(() => undefined);
  }, [lastId, unread, queryClient]);
  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);

  const onType = (value: string) => {
    setText(value);
    const at = Date.now();
    if (channel && value && at - typedAt.current > TYPING_SENT_EVERY_MS) {
      typedAt.current = at;
      liveClient().typing(channel);
    }
  };
  const submit = () => {
    const body = text.trim();
    if (body && !send.isPending) send.mutate({ text: body, clientId });
  };
  const attach = async (file: File | undefined) => {
    if (!file) return;
    send.mutate({ image: await asDataUrl(file), clientId });
    if (fileInput.current) fileInput.current.value = '';
  };

  if (chat.isPending) return <SkeletonRows count={4} height={56} />;
  if (chat.isError) return <ErrorState onRetry={() => void chat.refetch()} />;
  const view: ChatView = chat.data;
  const closed = view.conversation?.state === 'closed';
  return (
    <div className="chat">
      <div className="chat__scroll" data-testid="chat-history">
        <p className="chat__intro">{t('chat.intro')}</p>
        {messages.length === 0 ? (
          <p className="chat__empty" data-testid="chat-empty">
            {t('chat.empty')}
          </p>
        ) : (
          <ul className="chat__list">
            {messages.map((m) => (
              <Bubble key={m.id} m={m} now={now} timeZone={timeZone} />
            ))}
          </ul>
        )}
        {closed && <p className="chat__closed">{t('chat.closed')}</p>}
        {typingUntil > now && (
          <p className="chat__typing" data-testid="chat-typing">
            {t('chat.typing')}
          </p>
        )}
        <div ref={listEnd} />
      </div>
      <form
        className="chat__composer"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          data-testid="chat-file"
          onChange={(e) => void attach(e.target.files?.[0])}
        />
        <button
          type="button"
          className="chat__attach"
          aria-label={t('chat.attach')}
          disabled={send.isPending}
          onClick={() => fileInput.current?.click()}
        >
          +
        </button>
        <TextArea
          className="chat__input"
          value={text}
          onChange={onType}
          placeholder={t('chat.placeholder')}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={2000}
          data-testid="chat-input"
        />
        <Button
          color="primary"
          type="submit"
          size="small"
          disabled={!text.trim()}
          loading={send.isPending}
          data-testid="chat-send"
        >
          {t('chat.send')}
        </Button>
      </form>
    </div>
  );
}

/** user/service: the built-in chat. */
export function UserServicePage() {
  const { t } = useTranslation();
  return (
    <Page title={t('titles.user.service')} className="chat-page">
      <RequireLogin>
        <ChatScreen />
      </RequireLogin>
    </Page>
  );
}

/** common/service: how support works; the chat itself once signed in. */
export function CommonServicePage() {
  const { t } = useTranslation();
  const { token } = useSession();
  if (token) return <Navigate to="/pages/user/service" replace />;
  const redirect = encodeURIComponent('/pages/user/service');
  return (
    <Page title={t('titles.common.service')}>
      <article className="prose" data-testid="service-info">
        <p>{t('chat.publicIntro')}</p>
        <ul>
          <li>{t('chat.publicPoint1')}</li>
          <li>{t('chat.publicPoint2')}</li>
          <li>{t('chat.publicPoint3')}</li>
        </ul>
        <p className="row-gap">
          <Link className="btn btn--primary" to={`${loginPath}?redirect=${redirect}`} data-testid="service-sign-in">
            {t('chat.signInToChat')}
          </Link>
          <Link className="btn btn--outline" to="/pages/account/reg">
            {t('auth.register')}
          </Link>
        </p>
      </article>
    </Page>
  );
}

/** The external widget, loaded with its icon hidden and opened from a button the page shows. */
function ExternalWidget({ src, titleKey }: { src: string; titleKey: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let live = true;
    loadExternalWidget(src)
      .then(() => {
        if (!live) return;
        setState('ready');
        openExternalWidget();
      })
      .catch(() => live && setState('failed'));
    return () => {
      live = false;
    };
  }, [src]);
  return (
    <Page title={t(titleKey)}>
      <article className="prose" data-testid="service-widget">
        <p>{t('chat.widgetIntro', { host: new URL(src, window.location.href).host })}</p>
        {state === 'failed' ? (
          <p className="chat__closed">{t('chat.widgetFailed')}</p>
        ) : (
          <Button color="primary" block disabled={state !== 'ready'} onClick={() => void openExternalWidget()}>
            {t('chat.widgetOpen')}
          </Button>
        )}
      </article>
    </Page>
  );
}

/** user/serviceJs: the external widget when set, else the built-in chat. */
export function UserServiceJsPage() {
  const info = useLoginInfo();
  const props = usePlatformProps();
  const src = info.data?.serviceSaleSmartly || props.data?.serviceSaleSmartly || '';
  if (info.isPending && props.isPending) return <SkeletonRows count={3} />;
  return src ? (
    <ExternalWidget src={src} titleKey="titles.user.serviceJs" />
  ) : (
    <Navigate to="/pages/user/service" replace />
  );
}

/** common/serviceJs: the external widget when set, else support's page (the chat once signed in). */
export function CommonServiceJsPage() {
  const props = usePlatformProps();
  const src = props.data?.serviceSaleSmartly ?? '';
  if (props.isPending) return <SkeletonRows count={3} />;
  return src ? (
    <ExternalWidget src={src} titleKey="titles.common.serviceJs" />
  ) : (
    <Navigate to="/pages/common/service" replace />
  );
}
