// The support chat through the HTTP API and the stream, on both databases: a customer writes (text and
// an image checked as KYC photos), a support staff member takes the conversation, answers and closes it;
// delivery and read state and unread counts follow both sides; a resend with the same client id is one
// message; every rejection answers its code in both languages; a foreign conversation or image answers
// not found; assignment rules hold between two staff members; the chat channels push a nudge to the
// customer's own channel and to the desk, carry typing, and a blocked or signed-out session loses its
// chat channel. The external widget's setting (SERVICE_CHAT_URL) reaches the props, login info and the CSP.

import { openDb, testDatabases } from '@bourse/db';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_STAFF } from '../demo/seed.ts';

const dbs = await testDatabases();
type T = Awaited<ReturnType<typeof testApp>>;
type Message = {
  op?: string;
  channel?: string;
  seq?: number;
  refused?: string[];
  channels?: string[];
  error?: string;
  data?: { kind?: string; from?: string; conversationId?: number };
};

let png = '';
beforeAll(async () => {
  const raw = { create: { width: 64, height: 40, channels: 3 as const, background: '#3366cc' } };
  png = `data:image/png;base64,${(await sharp(raw).png().toBuffer()).toString('base64')}`;
});

let t: T | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function signIn(app: T, username: string, password: string, secret: string) {
  const answer = await app.call('POST', '/admin/auth/login', {
    json: { username, password, totpCode: totpNow(secret, app.clock.now()) },
  });
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
  return answer.body.data.token as string;
}

/** The demo admin and two support staff members, signed in. */
async function desk(app: T) {
  const admin = await signIn(app, DEMO_STAFF.username, DEMO_STAFF.password, DEMO_STAFF.totpSecret);
  const hire = async (username: string) => {
    const created = (
      await app.call('POST', '/admin/staff/create', {
        token: admin,
        json: { username, role: 'support', reason: 'chat desk hire' },
      })
    ).body.data;
    await app.advance(30_000);
    return signIn(app, username, created.initialPassword, created.totpSecret);
  };
  return { admin, sam: await hire('sam'), rita: await hire('rita') };
}

const both = [
  ['en-US', 'en'],
  ['pt-BR', 'pt'],
] as const;

describe.each(dbs)('support chat on $dialect', ({ open }) => {
  it('carries a conversation from the customer to the desk and back, with delivery, read and unread counts', async () => {
    t = await testApp(await open());
    const app = t;
    const asha = (await app.register('9800000201')).body.data.token as string;
    const staff = await desk(app);

    expect((await app.call('GET', '/user/chat', { token: asha })).body.data).toEqual({
      conversation: null,
      messages: [],
      more: false,
      unread: 0,
    });
    const first = await app.call('POST', '/user/chat/message', {
      token: asha,
      lang: 'pt-BR',
      json: { text: '  Olá, preciso de ajuda  ', clientId: 'msg-00000001' },
    });
    expect(first.body).toMatchObject({ code: 0, msg: 'Enviado' });
    expect(first.body.data).toMatchObject({
      author: 'customer',
      text: 'Olá, preciso de ajuda',
      delivered: false,
      read: false,
    });
    // The same client id again is the same message, not a second one.
    const again = await app.call('POST', '/user/chat/message', {
      token: asha,
      json: { text: 'Olá, preciso de ajuda', clientId: 'msg-00000001' },
    });
    expect(again.body.data.id).toBe(first.body.data.id);
    // The same client id with another message is refused, and the first message stays as it was.
    for (const [lang, text] of [
      ['en-US', 'This request was already sent with different content'],
      ['pt-BR', 'Esta solicitação já foi enviada com conteúdo diferente'],
    ] as const) {
      const reused = await app.call('POST', '/user/chat/message', {
        token: asha,
        lang,
        json: { text: 'Something else entirely', clientId: 'msg-00000001' },
      });
      expect([reused.status, reused.body.error, reused.body.msg]).toEqual([409, 'idempotency_key_reused', text]);
    }
    const withImage = await app.call('POST', '/user/chat/message', {
      token: asha,
      json: { image: png, clientId: 'msg-00000002' },
    });
    expect(withImage.body.data).toMatchObject({ text: '', imageId: expect.any(Number) });

    // The image is the owner's, re-encoded as a JPEG.
    const own = await app.app.http.inject({
      method: 'GET',
      url: `/ipor-api/user/chat/image/${withImage.body.data.imageId}`,
      headers: { token: asha },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(own.rawPayload).metadata()).format).toBe('jpeg');

    // The desk: the conversation waits unassigned, queue = the customer's language, two unread.
    const queue = (await app.call('GET', '/admin/chat?queue=unassigned', { token: staff.sam })).body.data;
    expect(queue.items).toHaveLength(1);
    expect(queue.items[0]).toMatchObject({ state: 'open', queue: 'pt-BR', unread: 2, assignedStaffId: null });
    expect(queue.unread).toEqual({ unassigned: 2, mine: 0, open: 2 });
    const id = queue.items[0].id as number;
    const seen = (await app.call('GET', `/admin/chat/${id}`, { token: staff.sam })).body.data;
    expect(seen.messages.map((m: { text: string }) => m.text)).toEqual(['Olá, preciso de ajuda', '']);
    const staffImage = await app.app.http.inject({
      method: 'GET',
      url: `/ipor-api/admin/chat/image/${withImage.body.data.imageId}`,
      headers: { token: staff.sam },
    });
    expect(staffImage.statusCode).toBe(200);
    // Fetched by the desk: delivered, not yet read.
    const mine = (await app.call('GET', '/user/chat', { token: asha })).body.data;
    expect(mine.messages.map((m: { delivered: boolean; read: boolean }) => [m.delivered, m.read])).toEqual([
      [true, false],
      [true, false],
    ]);

    // Sam takes it; Rita can neither take it, answer it, release it nor close it.
    expect(
      (await app.call('POST', `/admin/chat/${id}/assign`, { token: staff.sam })).body.data.conversation,
    ).toMatchObject({
      state: 'assigned',
      assignedStaffName: 'sam',
    });
    for (const [lang, key] of both) {
      const msg = {
        en: [
          'Another staff member is handling this conversation',
          'Only the staff member handling this conversation can release it',
        ],
        pt: [
          'Outro membro da equipe está atendendo esta conversa',
          'Só quem está atendendo esta conversa pode liberá-la',
        ],
      }[key];
      const take = await app.call('POST', `/admin/chat/${id}/assign`, { token: staff.rita, lang });
      expect([take.status, take.body.error, take.body.msg]).toEqual([409, 'chat_assigned_elsewhere', msg[0]]);
      const answer = await app.call('POST', `/admin/chat/${id}/reply`, {
        token: staff.rita,
        lang,
        json: { text: 'hi', clientId: `rita-${key}-0001` },
      });
      expect(answer.body.error).toBe('chat_assigned_elsewhere');
      const release = await app.call('POST', `/admin/chat/${id}/release`, { token: staff.rita, lang });
      expect([release.body.error, release.body.msg]).toEqual(['chat_not_assigned_to_you', msg[1]]);
      const close = await app.call('POST', `/admin/chat/${id}/close`, {
        token: staff.rita,
        lang,
        json: { reason: 'not mine' },
      });
      expect(close.body.error).toBe('chat_assigned_elsewhere');
    }
    expect((await app.call('GET', '/admin/chat?queue=mine', { token: staff.sam })).body.data.items).toHaveLength(1);
    expect((await app.call('GET', '/admin/chat?queue=mine', { token: staff.rita })).body.data.items).toHaveLength(0);
    expect((await app.call('GET', '/admin/chat?queue=unassigned', { token: staff.rita })).body.data.items).toHaveLength(
      0,
    );

    // Sam answers: that reads what the customer wrote; the customer has one unread.
    const replied = await app.call('POST', `/admin/chat/${id}/reply`, {
      token: staff.sam,
      json: { text: 'Hello! How can we help?', clientId: 'sam-reply-0001' },
    });
    expect(replied.body.code, JSON.stringify(replied.body)).toBe(0);
    expect(replied.body.data.conversation.unread).toBe(0);
    expect((await app.call('GET', '/user/chat/unread', { token: asha })).body.data).toEqual({ unread: 1 });
    const view = (await app.call('GET', '/user/chat', { token: asha })).body.data;
    expect(view.unread).toBe(1);
    expect(view.messages.at(-1)).toMatchObject({
      author: 'staff',
      staffName: null,
      text: 'Hello! How can we help?',
      delivered: true,
    });
    expect(view.messages[0]).toMatchObject({ read: true });
    const read = await app.call('POST', '/user/chat/read', {
      token: asha,
      json: { upTo: view.messages.at(-1).id + 100 },
    });
    expect(read.body.data).toEqual({ unread: 0 });
    const staffSide = (await app.call('GET', `/admin/chat/${id}`, { token: staff.sam })).body.data;
    expect(staffSide.messages.at(-1)).toMatchObject({ author: 'staff', staffName: 'sam', delivered: true, read: true });

    // Release puts it back in the queue; Rita answers and so takes it; she closes it with a reason.
    await app.call('POST', `/admin/chat/${id}/release`, { token: staff.sam });
    expect((await app.call('GET', '/admin/chat?queue=unassigned', { token: staff.rita })).body.data.items).toHaveLength(
      1,
    );
    await app.call('POST', `/admin/chat/${id}/reply`, {
      token: staff.rita,
      json: { text: 'Done?', clientId: 'rita-reply-0001' },
    });
    const closed = await app.call('POST', `/admin/chat/${id}/close`, {
      token: staff.rita,
      json: { reason: 'answered' },
    });
    expect(closed.body.data.conversation.state).toBe('closed');
    for (const [lang, key] of both) {
      const after = await app.call('POST', `/admin/chat/${id}/reply`, {
        token: staff.rita,
        lang,
        json: { text: 'late', clientId: `rita-late-${key}1` },
      });
      expect([after.body.error, after.body.msg]).toEqual([
        'chat_closed',
        key === 'en' ? 'This conversation is closed' : 'Esta conversa está encerrada',
      ]);
    }
    // Every change of state and every reply is in the audit log.
    const audit = (await app.call('GET', '/admin/audit?limit=100', { token: staff.admin })).body.data;
    const actions = (audit.list ?? audit.items)
      .map((e: { action: string }) => e.action)
      .filter((a: string) => a.startsWith('chat.'));
    expect(actions.sort()).toEqual(
      ['chat.assign', 'chat.assign', 'chat.close', 'chat.release', 'chat.reply', 'chat.reply'].sort(),
    );

    // Writing after the close opens a new conversation.
    const next = await app.call('POST', '/user/chat/message', {
      token: asha,
      json: { text: 'One more thing', clientId: 'msg-00000003' },
    });
    expect(next.body.code).toBe(0);
    const newer = (await app.call('GET', '/user/chat', { token: asha })).body.data;
    expect(newer.conversation.id).not.toBe(id);
    expect(newer.messages).toHaveLength(1);
  });

  it('refuses what it must in both languages, and answers not found for anything not the customer’s own', async () => {
    t = await testApp(await open());
    const app = t;
    const asha = (await app.register('9800000211')).body.data.token as string;
    const ravi = (await app.register('9800000212')).body.data.token as string;
    const staff = await desk(app);
    const send = (token: string, json: unknown, lang = 'en-US') =>
      app.call('POST', '/user/chat/message', { token, lang, json });

    const cases = [
      [
        { text: '   ', clientId: 'empty-000001' },
        'chat_message_empty',
        'Write a message or attach an image',
        'Escreva uma mensagem ou anexe uma imagem',
      ],
      [
        { text: 'x'.repeat(2001), clientId: 'long-0000001' },
        'chat_message_too_long',
        'A message can have at most 2,000 characters',
        'Uma mensagem pode ter no máximo 2.000 caracteres',
      ],
      [
        { image: Buffer.from('%PDF-1.4 not a picture').toString('base64'), clientId: 'pdf-00000001' },
        'chat_image_type',
        'The image must be a JPEG, PNG or WebP picture',
        'A imagem deve ser uma figura JPEG, PNG ou WebP',
      ],
      [
        { image: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff).toString('base64'), clientId: 'big-00000001' },
        'chat_image_too_large',
        'The image is too large (at most 5 MB)',
        'A imagem é grande demais (no máximo 5 MB)',
      ],
    ] as const;
    for (const [body, error, en, pt] of cases) {
      const inEnglish = await send(asha, body);
      expect([inEnglish.status, inEnglish.body.error, inEnglish.body.msg]).toEqual([400, error, en]);
      expect((await send(asha, body, 'pt-BR')).body.msg).toBe(pt);
    }
    // Nothing was written by any refusal.
    expect((await app.call('GET', '/user/chat', { token: asha })).body.data.conversation).toBeNull();
    expect((await send(asha, { text: 'hi' })).body.error).toBe('validation_failed');
    expect((await send(asha, { text: 'hi', clientId: 'bad id!' })).body.error).toBe('validation_failed');
    expect(
      (await app.call('POST', '/user/chat/message', { json: { text: 'hi', clientId: 'anon-0000001' } })).body,
    ).toMatchObject({
      code: -1000,
      error: 'not_logged_in',
    });
    for (const [lang, key] of both) {
      const noChat = await app.call('POST', '/user/chat/read', { token: ravi, lang, json: { upTo: 1 } });
      expect([noChat.status, noChat.body.error, noChat.body.msg]).toEqual([
        404,
        'chat_not_found',
        key === 'en' ? 'Conversation not found' : 'Conversa não encontrada',
      ]);
    }

    // Rate limit: 20 messages a minute, then refused in both languages; a minute later, fine again.
    for (let i = 0; i < 19; i++)
      expect((await send(asha, { text: `n${i}`, clientId: `rate-${1000 + i}` })).body.code).toBe(0);
    const img = (await send(asha, { image: png, clientId: 'rate-img-0001' })).body.data;
    for (const [lang, key] of both) {
      const limited = await send(asha, { text: 'too many', clientId: `rate-over-${key}` }, lang);
      expect([limited.status, limited.body.error, limited.body.msg]).toEqual([
        429,
        'chat_rate_limited',
        key === 'en'
          ? 'You are sending messages too quickly. Please wait a minute.'
          : 'Você está enviando mensagens rápido demais. Aguarde um minuto.',
      ]);
    }
    app.clock.advance(61_000);
    expect((await send(asha, { text: 'later', clientId: 'rate-later-01' })).body.code).toBe(0);
    // Sent all at once, the limit still holds: the count is taken under the conversation's lock.
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) => send(asha, { text: `b${i}`, clientId: `burst-${1000 + i}` })),
    );
    expect(burst.filter((answer) => answer.body.code === 0)).toHaveLength(19);
    expect(burst.filter((answer) => answer.body.error === 'chat_rate_limited')).toHaveLength(6);
    app.clock.advance(61_000);

    // Ravi can't see Asha's image; his own chat is empty; unknown ids on the desk are not found.
    await send(ravi, { text: 'mine', clientId: 'ravi-0000001' });
    const foreign = await app.call('GET', `/user/chat/image/${img.imageId}`, { token: ravi, lang: 'pt-BR' });
    expect([foreign.status, foreign.body.error, foreign.body.msg]).toEqual([
      404,
      'chat_not_found',
      'Conversa não encontrada',
    ]);
    const ravisView = (await app.call('GET', '/user/chat', { token: ravi })).body.data;
    expect(ravisView.messages.map((m: { text: string }) => m.text)).toEqual(['mine']);
    // Reading "up to" an id from Asha's conversation moves only Ravi's own cursor, within his own messages.
    expect((await app.call('POST', '/user/chat/read', { token: ravi, json: { upTo: img.id } })).body.data.unread).toBe(
      0,
    );
    expect((await app.call('GET', '/admin/chat/99999', { token: staff.sam })).body.error).toBe('chat_not_found');
    expect((await app.call('POST', '/admin/chat/99999/assign', { token: staff.sam })).body.error).toBe(
      'chat_not_found',
    );
    expect((await app.call('GET', '/admin/chat/image/99999', { token: staff.sam })).body.error).toBe('chat_not_found');
    // Staff reply rules: empty, too long.
    const ashaChat = (await app.call('GET', '/user/chat', { token: asha })).body.data.conversation.id;
    expect(
      (
        await app.call('POST', `/admin/chat/${ashaChat}/reply`, {
          token: staff.sam,
          lang: 'pt-BR',
          json: { text: ' ', clientId: 'sam-empty-01' },
        })
      ).body.msg,
    ).toBe('Escreva uma mensagem ou anexe uma imagem');
    expect(
      (
        await app.call('POST', `/admin/chat/${ashaChat}/reply`, {
          token: staff.sam,
          json: { text: 'y'.repeat(2001), clientId: 'sam-long-001' },
        })
      ).body.error,
    ).toBe('chat_message_too_long');
    // A customer session is refused the desk; a role without chat.reply too.
    expect((await app.call('GET', '/admin/chat', { token: asha })).body.error).toBe('forbidden');
    const created = (
      await app.call('POST', '/admin/staff/create', {
        token: staff.admin,
        json: { username: 'fin', role: 'finance', reason: 'money desk' },
      })
    ).body.data;
    await app.advance(30_000);
    const finance = await signIn(app, 'fin', created.initialPassword, created.totpSecret);
    expect((await app.call('GET', '/admin/chat', { token: finance })).body.error).toBe('forbidden');
  });

  it('pushes chat nudges and typing to the customer and the desk, and drops a chat channel whose session ended', async () => {
    t = await testApp(await open());
    const app = t;
    await app.app.http.ready();
    const signedUp = (await app.register('9800000221')).body.data;
    const asha = signedUp.token as string;
    const ashaId = signedUp.user.id as number;
    const ravi = (await app.register('9800000222')).body.data.token as string;
    const staff = await desk(app);
    const socket = async (channels: string[]) => {
      const ws = await app.app.http.injectWS('/ipor-api/ws');
      const got: Message[] = [];
      ws.on('message', (raw) => got.push(JSON.parse(String(raw))));
      ws.send(JSON.stringify({ op: 'subscribe', channels }));
      await expect.poll(() => got.find((m) => m.op === 'subscribed')).toBeTruthy();
      return { ws, got, chat: () => got.filter((m) => m.channel?.startsWith('chat')) };
    };
    const customer = await socket([`chat:${asha}`, 'chat:not-a-session']);
    expect(customer.got.find((m) => m.op === 'subscribed')).toMatchObject({ channels: ['chat'], refused: ['chat'] });
    const other = await socket([`chat:${ravi}`]);
    const deskSocket = await socket([`chat-staff:${staff.sam}`, `chat-staff:${asha}`]);
    // A customer's token is no staff session: refused, not echoed.
    expect(deskSocket.got.find((m) => m.op === 'subscribed')).toMatchObject({
      channels: ['chat-staff'],
      refused: ['chat-staff'],
    });

    await app.call('POST', '/user/chat/message', { token: asha, json: { text: 'hello', clientId: 'ws-msg-00001' } });
    await expect.poll(() => deskSocket.chat().map((m) => m.data?.kind)).toContain('message');
    const id = deskSocket.chat()[0]!.data!.conversationId!;
    await expect.poll(() => customer.chat().map((m) => m.data?.kind)).toContain('message');

    // Typing: the customer's reaches the desk; the desk's reaches the customer, never another customer.
    customer.ws.send(JSON.stringify({ op: 'typing', channel: `chat:${asha}` }));
    await expect
      .poll(() => deskSocket.chat().find((m) => m.data?.kind === 'typing')?.data)
      .toEqual({
        kind: 'typing',
        conversationId: id,
        from: 'customer',
      });
    deskSocket.ws.send(JSON.stringify({ op: 'typing', channel: `chat-staff:${staff.sam}`, conversationId: id }));
    await expect
      .poll(() => customer.chat().find((m) => m.data?.kind === 'typing')?.data)
      .toMatchObject({ from: 'staff' });
    // Typing on a channel the socket does not hold does nothing.
    other.ws.send(JSON.stringify({ op: 'typing', channel: `chat:${asha}` }));

    await app.call('POST', `/admin/chat/${id}/reply`, {
      token: staff.sam,
      json: { text: 'hi!', clientId: 'ws-reply-0001' },
    });
    await expect.poll(() => customer.chat().filter((m) => m.data?.kind === 'message').length).toBe(2);
    const seqs = customer.chat().map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(other.chat()).toEqual([]);

    // Blocked: the chat channel is dropped with the reason; nothing more reaches it.
    const block = { userId: ashaId, status: 0, reason: 'chat stream test' };
    expect((await app.call('POST', '/admin/users/status', { token: staff.admin, json: block })).body.code).toBe(0);
    await expect
      .poll(() => customer.got.find((m) => m.op === 'unsubscribed'))
      .toEqual({ op: 'unsubscribed', channels: ['chat'], error: 'account_blocked' });
    const count = customer.chat().length;
    await app.call('POST', `/admin/chat/${id}/reply`, {
      token: staff.sam,
      json: { text: 'still there?', clientId: 'ws-reply-0002' },
    });
    await expect.poll(() => deskSocket.chat().filter((m) => m.data?.kind === 'message').length).toBe(3);
    expect(customer.chat()).toHaveLength(count);

    // Signed out: Ravi's chat channel goes the same way.
    expect((await app.call('POST', '/user/logout', { token: ravi })).body.code).toBe(0);
    await expect
      .poll(() => other.got.find((m) => m.op === 'unsubscribed'))
      .toEqual({ op: 'unsubscribed', channels: ['chat'], error: 'session_invalid' });
    // The desk's session signed out: its channel is dropped the next time it types (the typist is checked
    // before anything is forwarded), and the customer's new message reaches no desk.
    expect((await app.call('POST', '/admin/auth/logout', { token: staff.sam })).body.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // typing is taken at most once a second
    deskSocket.ws.send(JSON.stringify({ op: 'typing', channel: `chat-staff:${staff.sam}`, conversationId: id }));
    await expect
      .poll(() => deskSocket.got.find((m) => m.op === 'unsubscribed'))
      .toEqual({ op: 'unsubscribed', channels: ['chat-staff'], error: 'session_invalid' });
    const deskCount = deskSocket.chat().length;
    await app.call('POST', '/user/chat/message', {
      token: (await app.register('9800000223')).body.data.token,
      json: { text: 'new', clientId: 'ws-msg-00002' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(deskSocket.chat()).toHaveLength(deskCount);
    for (const s of [customer, other, deskSocket]) s.ws.terminate();
  });
});

describe('the external chat widget (SERVICE_CHAT_URL)', () => {
  it('is named in the props and login info, and only its origin is allowed by the CSP; none by default', async () => {
    t = await testApp(await openDb({ dataDir: null }), { serviceChatUrl: 'https://widget.example.com/chat.js?id=1' });
    const props = (await t.call('GET', '/common/props')).body.data;
    expect(props.serviceSaleSmartly).toBe('https://widget.example.com/chat.js?id=1');
    const token = (await t.register('9800000231')).body.data.token as string;
    expect((await t.call('GET', '/user/login/info', { token })).body.data.serviceSaleSmartly).toBe(
      'https://widget.example.com/chat.js?id=1',
    );
    const csp = String((await t.app.http.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    for (const directive of ['script-src', 'connect-src', 'frame-src'])
      expect(csp).toMatch(new RegExp(`${directive} [^;]*https://widget\\.example\\.com`));
    await t.close();

    t = await testApp(await openDb({ dataDir: null }));
    expect((await t.call('GET', '/common/props')).body.data.serviceSaleSmartly).toBe('');
    const plain = String((await t.app.http.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(plain).toContain("frame-src 'none'");
    expect(plain).toContain("script-src 'self';");
  });
});
