// The console's support chat desk (chat.reply: support and admin). Queues: waiting (open, nobody on
// it), mine, every conversation not closed, each with its unread count. A conversation shows the
// customer's messages (images too) and the replies; the desk takes it, releases it back to the queue,
// answers (the first answer takes an open one) and closes it with a reason — each audited by the
// server. Live over the stream's chat-staff channel (a nudge to refetch, the customer typing); polls
// when the socket is not open. Opening a conversation marks its messages read for the desk.

import type { ChatMessage, ChatQueue, StaffChatSummary } from '@bourse/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App as AntApp,
  Badge,
  Button,
  Card,
  Col,
  Empty,
  Flex,
  Input,
  List,
  Row,
  Segmented,
  Space,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, queryClient, queryKeys } from '../../app/api.ts';
import { useCurrentStaff } from '../../app/current-staff.tsx';
import { isApiError } from '../../app/request.ts';
import { getToken } from '../../app/session.ts';
import { PageTitle } from '../../shared/page-title.tsx';
import { ReasonModal } from '../../shared/reason-modal.tsx';
import { useDeskLive } from './chat-live.ts';

const TYPING_SHOWN_MS = 4_000;
const newClientId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
const stateColor = { open: 'orange', assigned: 'blue', closed: 'default' } as const;

function ChatImage({ id, alt }: { id: number; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    const token = getToken();
    void fetch(`/ipor-api/admin/chat/image/${id}`, { headers: token ? { token } : {} })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => {
        if (!live || blob === null) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  return url ? (
    <a href={url} target="_blank" rel="noreferrer">
      <img
        src={url}
        alt={alt}
        style={{ maxWidth: 240, maxHeight: 180, borderRadius: 6, display: 'block' }}
        data-testid="desk-chat-image"
      />
    </a>
  ) : (
    <div style={{ width: 160, height: 100, background: '#f0f0f0', borderRadius: 6 }} />
  );
}

function Bubble({ m, language }: { m: ChatMessage; language: string }) {
  const { t } = useTranslation();
  const staff = m.author === 'staff';
  const time = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(m.createdAt);
  return (
    <Flex justify={staff ? 'flex-end' : 'flex-start'} data-testid={`desk-message-${m.author}`}>
      <div
        style={{
          maxWidth: '75%',
          padding: '8px 12px',
          borderRadius: 12,
          background: staff ? '#e6f4ff' : '#f5f5f5',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {staff ? (m.staffName ?? t('chat.staff')) : t('chat.customer')} · {time}
          {staff && ` · ${t(m.read ? 'chat.read' : m.delivered ? 'chat.delivered' : 'chat.sent')}`}
        </Typography.Text>
        {m.imageId !== null && <ChatImage id={m.imageId} alt={t('chat.image')} />}
        {m.text && <div>{m.text}</div>}
      </div>
    </Flex>
  );
}

function Conversation({
  id,
  typingUntil,
  onTyping,
  onTaken,
}: {
  id: number;
  typingUntil: number;
  onTyping: () => void;
  /** The conversation became this staff member's (taken, or answered from the queue). */
  onTaken: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const me = useCurrentStaff();
  const [text, setText] = useState('');
  const [clientId, setClientId] = useState(newClientId);
  const [closing, setClosing] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const end = useRef<HTMLDivElement>(null);
  const chat = useQuery({ queryKey: [...queryKeys.chats, id], queryFn: () => adminApi.chat(id) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.chats });
  const onError = (error: unknown) => {
    if (isApiError(error)) void message.error(error.message);
    refresh();
  };
  const assign = useMutation({
    mutationFn: () => adminApi.assignChat(id),
    onSuccess: () => {
      onTaken();
      refresh();
    },
    onError,
  });
  const release = useMutation({ mutationFn: () => adminApi.releaseChat(id), onSuccess: refresh, onError });
  const reply = useMutation({
    mutationFn: (body: string) => adminApi.replyChat(id, { text: body, clientId }),
    onSuccess: () => {
      setText('');
      setClientId(newClientId());
      onTaken();
      refresh();
    },
    onError,
  });
  const c = chat.data?.conversation;
  const lastId = chat.data?.messages.at(-1)?.id;
  const unread = c?.unread ?? 0;
  useEffect(() => {
    if (lastId && unread > 0)
      void adminApi
        .readChat(id, lastId)
        .then(refresh)
        .catch(() => undefined);
  }, [id, lastId, unread]);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  if (!c) return <Card loading />;
  const mine = c.assignedStaffId === me.staff.id;
  const closed = c.state === 'closed';
  const takenElsewhere = c.state === 'assigned' && !mine;
  return (
    <Card
      title={
        <Space>
          <span data-testid="desk-customer">{c.customer}</span>
          <Tag color={stateColor[c.state]}>{t(`chat.state.${c.state}`)}</Tag>
          {c.assignedStaffName && (
            <Typography.Text type="secondary">{t('chat.handledBy', { name: c.assignedStaffName })}</Typography.Text>
          )}
        </Space>
      }
      extra={
        <Space>
          {c.state === 'open' && (
            <Button onClick={() => assign.mutate()} loading={assign.isPending} data-testid="desk-assign">
              {t('chat.assign')}
            </Button>
          )}
          {c.state === 'assigned' && mine && (
            <Button onClick={() => release.mutate()} loading={release.isPending} data-testid="desk-release">
              {t('chat.release')}
            </Button>
          )}
          {!closed && !takenElsewhere && (
            <Button danger onClick={() => setClosing(true)} data-testid="desk-close">
              {t('chat.close')}
            </Button>
          )}
        </Space>
      }
    >
      <div style={{ height: 420, overflowY: 'auto', padding: 4 }} data-testid="desk-history">
        <Space direction="vertical" size={8} style={{ width: '100%' }}>
          {chat.data?.messages.map((m) => (
            <Bubble key={m.id} m={m} language={i18n.language} />
          ))}
        </Space>
        {typingUntil > now && (
          <Typography.Text type="secondary" italic data-testid="desk-typing">
            {t('chat.customerTyping')}
          </Typography.Text>
        )}
        <div ref={end} />
      </div>
      {takenElsewhere && <Alert type="info" showIcon title={t('chat.takenElsewhere', { name: c.assignedStaffName })} />}
      {!closed && !takenElsewhere && (
        <Flex gap={8} style={{ marginTop: 12 }}>
          <Input.TextArea
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              onTyping();
            }}
            onPressEnter={(e) => {
              if (!e.shiftKey && text.trim()) {
                e.preventDefault();
                reply.mutate(text.trim());
              }
            }}
            autoSize={{ minRows: 1, maxRows: 4 }}
            maxLength={2000}
            placeholder={t('chat.replyPlaceholder')}
            data-testid="desk-reply-input"
          />
          <Button
            type="primary"
            disabled={!text.trim()}
            loading={reply.isPending}
            onClick={() => reply.mutate(text.trim())}
            data-testid="desk-reply-send"
          >
            {t('chat.send')}
          </Button>
        </Flex>
      )}
      <ReasonModal
        open={closing}
        isDanger
        title={t('chat.closeTitle', { customer: c.customer })}
        body={<Typography.Paragraph>{t('chat.closeBody')}</Typography.Paragraph>}
        okText={t('chat.close')}
        onCancel={() => setClosing(false)}
        onConfirm={async (reason) => {
          await adminApi.closeChat(id, reason);
          setClosing(false);
          refresh();
        }}
      />
    </Card>
  );
}

export default function ChatDeskPage() {
  const { t, i18n } = useTranslation();
  const [queue, setQueue] = useState<ChatQueue>('unassigned');
  const [selected, setSelected] = useState<number | null>(null);
  const [typing, setTyping] = useState<{ id: number; until: number } | null>(null);
  const typedAt = useRef(0);
  const live = useDeskLive((event) => {
    if (event.kind === 'typing') setTyping({ id: event.conversationId, until: Date.now() + TYPING_SHOWN_MS });
    else void queryClient.invalidateQueries({ queryKey: queryKeys.chats });
  });
  const list = useQuery({
    queryKey: [...queryKeys.chats, 'list', queue],
    queryFn: () => adminApi.chats(queue),
    refetchInterval: live.isOpen ? false : 5_000,
  });
  const counts = list.data?.unread;
  const label = (key: ChatQueue) => (
    <Space size={4}>
      {t(`chat.queue.${key}`)}
      <Badge count={counts?.[key] ?? 0} size="small" />
    </Space>
  );
  return (
    <>
      <PageTitle
        title={t('chat.pageTitle')}
        extra={<Tag color={live.isOpen ? 'green' : 'default'}>{t(live.isOpen ? 'chat.live' : 'chat.polling')}</Tag>}
      />
      <Row gutter={16}>
        <Col xs={24} md={9}>
          <Card>
            <Segmented<ChatQueue>
              block
              value={queue}
              onChange={setQueue}
              options={(['unassigned', 'mine', 'open'] as const).map((key) => ({ value: key, label: label(key) }))}
              data-testid="desk-queues"
            />
            <List<StaffChatSummary>
              style={{ marginTop: 12 }}
              loading={list.isPending}
              dataSource={list.data?.items ?? []}
              locale={{ emptyText: <Empty description={t('chat.empty')} /> }}
              renderItem={(c) => (
                <List.Item
                  onClick={() => setSelected(c.id)}
                  style={{ cursor: 'pointer', background: c.id === selected ? '#f0f5ff' : undefined, paddingInline: 8 }}
                  data-testid="desk-conversation"
                >
                  <List.Item.Meta
                    title={
                      <Space>
                        {c.customer}
                        <Tag color={stateColor[c.state]}>{t(`chat.state.${c.state}`)}</Tag>
                      </Space>
                    }
                    description={
                      <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
                        {c.lastText || t('chat.imageOnly')} ·{' '}
                        {new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(c.lastAt)}
                      </Typography.Text>
                    }
                  />
                  <Badge count={c.unread} data-testid="desk-unread" />
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} md={15}>
          {selected === null ? (
            <Card>
              <Empty description={t('chat.pick')} />
            </Card>
          ) : (
            <Conversation
              key={selected}
              id={selected}
              typingUntil={typing?.id === selected ? typing.until : 0}
              onTaken={() => setQueue('mine')}
              onTyping={() => {
                const at = Date.now();
                if (at - typedAt.current < 2_000) return;
                typedAt.current = at;
                live.typing(selected);
              }}
            />
          )}
        </Col>
      </Row>
    </>
  );
}
