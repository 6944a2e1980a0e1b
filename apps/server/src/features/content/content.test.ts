// API tests of news, notices, ads and the message centre on SQLite and PostgreSQL: the seeded demo
// content in both languages (seeded once), the staff life cycle draft → published → unpublished with its
// audit entries and role checks, translated refusals that change nothing, and per-user read state; the
// pages of fixed text (company introduction, loan service): defaults, edited by staff in both languages.

import { testDatabases } from '@bourse/db';
import { afterEach, describe, expect, it } from 'vitest';
import { totpNow } from '../../platform/totp.ts';
import { testApp } from '../../testing.ts';
import { DEMO_CUSTOMER, DEMO_STAFF } from '../demo/seed.ts';
import { verifyChain } from '../staff/audit.ts';
import { bannerImage, seedDemoContent, upcomingHolidays } from './demo-content.ts';
import { Content } from './service.ts';

const dbs = await testDatabases();

const NEWS = {
  kind: 'news',
  titleEn: 'Sensex session recap (test)',
  titlePt: 'Resumo do pregão do Sensex (teste)',
  summaryEn: 'A short summary.',
  summaryPt: 'Um resumo curto.',
  bodyEn: 'First paragraph.\n\nSecond paragraph.',
  bodyPt: 'Primeiro parágrafo.\n\nSegundo parágrafo.',
  sourceEn: 'Test desk',
  sourcePt: 'Mesa de teste',
};

describe.each(dbs)('content on $dialect', ({ open }) => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let db: Awaited<ReturnType<typeof open>>;
  afterEach(async () => {
    await t.close();
    await db.close();
  });
  const start = async () => {
    db = await open();
    t = await testApp(db);
  };
  const staffToken = async (
    username: string = DEMO_STAFF.username,
    password: string = DEMO_STAFF.password,
    secret: string = DEMO_STAFF.totpSecret,
  ) =>
    (
      await t.call('POST', '/admin/auth/login', {
        json: { username, password, totpCode: totpNow(secret, t.clock.now()) },
      })
    ).body.data.token as string;
  const newStaff = async (admin: string, username: string, role: string) => {
    const created = (
      await t.call('POST', '/admin/staff/create', { token: admin, json: { username, role, reason: 'content tests' } })
    ).body.data;
    return staffToken(username, created.initialPassword, created.totpSecret);
  };
  const demoToken = async () =>
    (
      await t.call('POST', '/user/login', {
        body: { areaCode: DEMO_CUSTOMER.areaCode, phone: DEMO_CUSTOMER.phone, password: DEMO_CUSTOMER.password },
      })
    ).body.data.token as string;
  const count = async (table: string) =>
    Number((await db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
  const newsTitles = async (lang: string) =>
    ((await t.call('GET', '/index/news?limit=50', { lang })).body.data.items as { title: string }[]).map(
      (n) => n.title,
    );

  it('serves the seeded demo content in the request language, and seeding again adds nothing', async () => {
    await start();
    const adsEn = (await t.call('GET', '/index/ads')).body.data.items;
    const adsPt = (await t.call('GET', '/index/ads', { lang: 'pt-BR' })).body.data.items;
    expect(adsEn).toHaveLength(3);
    expect(adsEn[0]).toMatchObject({ title: 'Practise with virtual money', link: '/pages/tabbar/markets' });
    expect(adsEn[0].image).toMatch(/^data:image\/svg\+xml;utf8,/);
    expect(adsPt[0].title).toBe('Pratique com dinheiro virtual');
    expect(decodeURIComponent(adsPt[0].image)).toContain('Modo simulado · dinheiro virtual');

    const notices = (await t.call('GET', '/index/notice')).body.data.items;
    expect(notices.length).toBeGreaterThanOrEqual(3);
    expect(notices[0].title).toBe('Paper mode: every balance here is virtual money');
    // The next NSE holidays after the test clock (5 January 2026) come from the calendar data.
    const [first] = upcomingHolidays('NSE', t.clock.now(), 1);
    expect(first).toEqual({ day: '2026-01-15', name: 'Municipal Corporation elections (Maharashtra)' });
    expect(notices.map((n: { title: string }) => n.title)).toContain(
      'NSE and BSE closed on Thursday 15-01-2026: Municipal Corporation elections (Maharashtra)',
    );
    const noticesPt = (await t.call('GET', '/index/notice', { lang: 'pt-BR' })).body.data.items;
    expect(noticesPt.map((n: { title: string }) => n.title)).toContain(
      'NSE e BSE fechadas na quinta-feira, 15-01-2026: Municipal Corporation elections (Maharashtra)',
    );

    const news = (await t.call('GET', '/index/news?page=1&limit=5')).body.data;
    expect(news.total).toBeGreaterThanOrEqual(6);
    expect(news.items).toHaveLength(5);
    expect(news.items[0]).toMatchObject({ title: 'How the paper market works', source: 'Demo desk · paper mode' });
    const page2 = (await t.call('GET', '/index/news?page=2&limit=5')).body.data;
    expect(page2.items.length).toBe(news.total - 5);
    const article = (await t.call('GET', `/index/news/info?id=${news.items[0].id}`)).body.data;
    expect(article.body).toContain('Demo content written for paper mode');
    const artigo = (await t.call('GET', `/index/news/info?id=${news.items[0].id}`, { lang: 'pt-BR' })).body.data;
    expect(artigo).toMatchObject({
      title: 'Como funciona o mercado simulado',
      source: 'Mesa de demonstração · modo simulado',
    });
    expect(artigo.body).toContain('Conteúdo de demonstração');
    for (const text of [...(await newsTitles('en-US')), article.body, artigo.body]) {
      expect(text).not.toMatch(/guaranteed return|retorno garantido|risk-free|sem risco/i);
    }

    // A news id is not a notice id, and the page size has a maximum.
    expect((await t.call('GET', `/index/notice/info?id=${news.items[0].id}`)).body.error).toBe('not_found');
    const tooMany = await t.call('GET', '/index/news?limit=51', { lang: 'pt-BR' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'validation_failed', msg: 'Verifique os campos destacados' });
    expect(tooMany.body.fields).toHaveProperty('limit');

    // Seeding again (a restart) adds nothing.
    const before = [await count('content_items'), await count('user_messages')];
    const userId = Number((await db.query<{ id: number }>('SELECT id FROM users WHERE is_demo = 1'))[0]!.id);
    await seedDemoContent(new Content({ db, clock: t.clock }), {
      now: t.clock.now() + 86_400_000,
      config: { stockCountry: 'IN', platformName: 'Bourse' },
      demoUserId: userId,
    });
    expect([await count('content_items'), await count('user_messages')]).toEqual(before);
  });

  it('publishes, edits and unpublishes an item for both languages, audited, for permitted staff only', async () => {
    await start();
    const admin = await staffToken();
    const created = await t.call('POST', '/admin/content/create', { token: admin, json: NEWS });
    expect(created.body.data).toMatchObject({ status: 'draft', titlePt: NEWS.titlePt, createdBy: 'admin' });
    const id = created.body.data.id as number;

    // A draft is not visible.
    expect(await newsTitles('en-US')).not.toContain(NEWS.titleEn);
    expect((await t.call('GET', `/index/news/info?id=${id}`)).body.error).toBe('not_found');

    expect((await t.call('POST', '/admin/content/publish', { token: admin, json: { id } })).body.data.status).toBe(
      'published',
    );
    t.clock.advance(1000);
    expect((await newsTitles('en-US'))[0]).toBe(NEWS.titleEn);
    expect((await newsTitles('pt-BR'))[0]).toBe(NEWS.titlePt);
    const pt = (await t.call('GET', `/index/news/info?id=${id}`, { lang: 'pt-BR' })).body.data;
    expect(pt).toMatchObject({
      title: NEWS.titlePt,
      body: NEWS.bodyPt,
      source: NEWS.sourcePt,
      summary: NEWS.summaryPt,
    });

    // An edit of a published item shows at once; English-only text is served to pt-BR too.
    const edited = { ...NEWS, id, titlePt: '', summaryPt: '', bodyPt: '', sourcePt: '', titleEn: 'Edited title' };
    delete (edited as Partial<typeof edited>).kind;
    expect((await t.call('POST', '/admin/content/update', { token: admin, json: edited })).body.code).toBe(0);
    expect((await newsTitles('pt-BR'))[0]).toBe('Edited title');

    // Unpublishing needs a reason; then the item is gone from the app but kept in the console.
    const noReason = await t.call('POST', '/admin/content/unpublish', { token: admin, json: { id, reason: '' } });
    expect(noReason.body.error).toBe('reason_required');
    expect((await newsTitles('en-US'))[0]).toBe('Edited title');
    const unpublished = await t.call('POST', '/admin/content/unpublish', {
      token: admin,
      json: { id, reason: 'Superseded by the evening recap' },
    });
    expect(unpublished.body.data.status).toBe('unpublished');
    expect(await newsTitles('en-US')).not.toContain('Edited title');
    expect((await t.call('GET', `/index/news/info?id=${id}`)).body.error).toBe('not_found');
    const listed = (await t.call('GET', '/admin/content?kind=news&status=unpublished', { token: admin })).body.data;
    expect(listed.items.map((i: { id: number }) => i.id)).toEqual([id]);

    const audit = (await t.call('GET', '/admin/audit?limit=100', { token: admin })).body.data.items as {
      action: string;
      targetId: string;
      reason: string;
      detail: Record<string, unknown>;
    }[];
    const mine = audit.filter((a) => a.action.startsWith('content.') && a.targetId === String(id));
    expect(mine.map((a) => a.action)).toEqual([
      'content.unpublished',
      'content.updated',
      'content.published',
      'content.created',
    ]);
    expect(mine[0]!.reason).toBe('Superseded by the evening recap');
    expect(mine[1]!.detail.changed).toEqual(['titleEn', 'titlePt', 'summaryPt', 'bodyPt', 'sourcePt']);
    expect((await verifyChain(db)).firstBrokenId).toBeNull();

    // Support may manage content; compliance and finance may not, and their attempts change nothing.
    const support = await newStaff(admin, 'sue', 'support');
    const supportDraft = await t.call('POST', '/admin/content/create', {
      token: support,
      json: { kind: 'notice', titleEn: 'Support notice' },
    });
    expect(supportDraft.body.data.status).toBe('draft');
    const items = await count('content_items');
    for (const role of ['compliance', 'finance']) {
      const token = await newStaff(admin, `${role}.one`, role);
      const refused = await t.call('POST', '/admin/content/create', { token, json: NEWS, lang: 'pt-BR' });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden', msg: 'Você não tem permissão para fazer isso' });
      expect((await t.call('GET', '/admin/content', { token })).body.error).toBe('forbidden');
      expect((await t.call('POST', '/admin/content/publish', { token, json: { id } })).body.error).toBe('forbidden');
      expect(
        (await t.call('POST', '/admin/messages/send', { token, json: { userId: 1, titleEn: 'x', bodyEn: 'y' } })).body
          .error,
      ).toBe('forbidden');
    }
    expect(await count('content_items')).toBe(items);
    // A customer token is no staff token: the customer is signed in, but may not do this.
    expect((await t.call('GET', '/admin/content', { token: await demoToken() })).body.error).toBe('forbidden');
  });

  it('refuses incomplete or unsafe items with translated codes and changes nothing', async () => {
    await start();
    const admin = await staffToken();
    const before = [await count('content_items'), await count('audit_log')];
    const create = (json: Record<string, unknown>, lang = 'en-US') =>
      t.call('POST', '/admin/content/create', { token: admin, json, lang });

    const noTitle = await create({ kind: 'notice', bodyEn: 'text' }, 'pt-BR');
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({
      error: 'content_title_required',
      msg: 'Escreva um título em pelo menos um idioma',
    });
    expect(noTitle.body.fields).toEqual({ titleEn: 'Escreva um título em pelo menos um idioma' });

    const noBody = await create({ kind: 'news', titleEn: 'A', titlePt: 'B', bodyPt: 'corpo' });
    expect(noBody.body).toMatchObject({ error: 'validation_failed', fields: { bodyEn: 'This field is required' } });

    const noImage = await create({ kind: 'ad', titleEn: 'Banner' });
    expect(noImage.body.fields).toEqual({ imageEn: 'This field is required' });

    const remoteImage = await create(
      { kind: 'ad', titleEn: 'Banner', imageEn: 'https://tracker.example/x.png' },
      'pt-BR',
    );
    expect(remoteImage.body.error).toBe('content_image_invalid');
    expect(remoteImage.body.msg).toContain('A imagem deve ser');

    const scriptLink = await create({
      kind: 'ad',
      titleEn: 'Banner',
      imageEn: bannerImage('a', 'b', 'c', ['#000', '#fff']),
      link: 'javascript:alert(1)',
    });
    expect(scriptLink.body).toMatchObject({ error: 'content_link_invalid' });

    expect((await create({ kind: 'popup', titleEn: 'x' })).body.fields).toHaveProperty('kind');
    expect((await create({ ...NEWS, titleEn: 'x'.repeat(201) })).body.fields).toHaveProperty('titleEn');

    // State rules: publish twice, unpublish a draft, edit an unknown item.
    const draft = (await create({ kind: 'notice', titleEn: 'Draft notice' })).body.data.id as number;
    const afterDraft = [await count('content_items'), await count('audit_log')];
    expect(afterDraft).toEqual([before[0]! + 1, before[1]! + 1]);
    const notPublished = await t.call('POST', '/admin/content/unpublish', {
      token: admin,
      json: { id: draft, reason: 'not needed' },
      lang: 'pt-BR',
    });
    expect(notPublished.body).toMatchObject({
      error: 'content_not_published',
      msg: 'Apenas um item publicado pode ser retirado do ar',
    });
    await t.call('POST', '/admin/content/publish', { token: admin, json: { id: draft } });
    const twice = await t.call('POST', '/admin/content/publish', { token: admin, json: { id: draft } });
    expect(twice.body.error).toBe('content_already_published');
    const emptied = await t.call('POST', '/admin/content/update', { token: admin, json: { id: draft, titleEn: '' } });
    expect(emptied.body.error).toBe('content_title_required');
    expect((await t.call('GET', '/index/notice')).body.data.items[0].title).toBe('Draft notice');
    expect(
      (await t.call('POST', '/admin/content/update', { token: admin, json: { id: 999_999, titleEn: 'x' } })).body.error,
    ).toBe('not_found');
    // Only the draft's creation and its one publication were written.
    expect([await count('content_items'), await count('audit_log')]).toEqual([before[0]! + 1, before[1]! + 2]);

    const noUser = await t.call('POST', '/admin/messages/send', {
      token: admin,
      json: { userId: 999_999, titleEn: 'Hi', bodyEn: 'Hello' },
      lang: 'pt-BR',
    });
    expect(noUser.body).toMatchObject({ error: 'user_not_found', fields: { userId: 'Nenhum cliente tem este ID' } });
    const noMessageBody = await t.call('POST', '/admin/messages/send', {
      token: admin,
      json: { userId: 1, titleEn: 'Hi' },
    });
    expect(noMessageBody.body.fields).toEqual({ bodyEn: 'This field is required' });
    expect(await count('user_messages')).toBe(1); // the seeded welcome message only
  });

  it('refuses mistyped ids and flags, control characters, paths to other sites and over-long text, changing nothing', async () => {
    await start();
    const admin = await staffToken();
    const published = (
      await t.call('POST', '/admin/content/create', {
        token: admin,
        json: { kind: 'notice', titleEn: 'Stays published', publish: true },
      })
    ).body.data.id as number;
    const tables = async () => [
      await count('content_items'),
      await count('user_messages'),
      await count('audit_log'),
      await count("content_items WHERE status = 'published'"),
    ];
    const before = await tables();
    const post = (path: string, json: Record<string, unknown>, lang = 'en-US') =>
      t.call('POST', path, { token: admin, json, lang });
    const fieldsOf = async (path: string, json: Record<string, unknown>) => (await post(path, json)).body.fields;

    // true and [1] were read as the id 1 (a seeded banner: unpublished by `{id: true}`), "0x10" as 16,
    // " 5 " as 5 (fields.ts recordId now refuses them everywhere); here through each content write.
    for (const id of [true, [1], `0x${published.toString(16)}`, ` ${published} `, '1e0', 0, -1, 1.5, 2 ** 60]) {
      const why = JSON.stringify(id);
      expect(await fieldsOf('/admin/content/unpublish', { id, reason: 'type probe' }), why).toEqual({
        id: 'This value is not valid',
      });
      expect(await fieldsOf('/admin/content/publish', { id }), why).toHaveProperty('id');
      expect(await fieldsOf('/admin/content/update', { id, titleEn: 'Retitled' }), why).toHaveProperty('id');
      expect(
        await fieldsOf('/admin/messages/send', { userId: id, titleEn: 'Hi', bodyEn: 'Hello' }),
        why,
      ).toHaveProperty('userId');
    }
    // An unknown kind is invalid, not missing; a flag is a boolean or a form's 1/0/true/false/on/off.
    expect(await fieldsOf('/admin/content/create', { kind: 'popup', titleEn: 'x' })).toEqual({
      kind: 'This value is not valid',
    });
    expect(await fieldsOf('/admin/content/create', { kind: 'notice', titleEn: 'x', publish: 'yes' })).toEqual({
      publish: 'This value is not valid',
    });
    // NUL failed on PostgreSQL with internal_error (and was stored on SQLite); other control characters too.
    for (const titleEn of ['a\u0000b', 'a\u001b[31mb', 'a\u007f']) {
      expect(await fieldsOf('/admin/content/create', { kind: 'notice', titleEn }), titleEn).toEqual({
        titleEn: 'This value is not valid',
      });
      expect(await fieldsOf('/admin/messages/send', { userId: 1, titleEn, bodyEn: 'Hello' }), titleEn).toHaveProperty(
        'titleEn',
      );
    }
    expect(
      (await post('/admin/content/create', { kind: 'notice', titleEn: 'Two lines', bodyEn: 'one\n\ttwo' })).body.code,
    ).toBe(0);
    // Browsers read "/\\host" and "/<tab>/host" as "//host": not a path on this site.
    for (const imageEn of ['/\\tracker.example/p.png', '/\t/tracker.example/p.png', '/ /tracker.example/p.png']) {
      expect(
        (await post('/admin/content/create', { kind: 'ad', titleEn: 'Banner', imageEn })).body.error,
        imageEn,
      ).toBe('content_image_invalid');
    }
    // URL parsers read "%2e" as "." in a path, so each of these climbs out of /pages/ as "..": refused.
    for (const link of ['/pages/../admin', '/pages/%2e%2e/admin', '/pages/%2E./admin', '/pages/.%2e/admin']) {
      expect(new URL(link, 'https://bourse.example').pathname, link).toBe('/admin');
      const climbing = await post('/admin/content/create', { kind: 'ad', titleEn: 'Banner', imageEn: '/b.png', link });
      expect(climbing.body.error, link).toBe('content_link_invalid');
    }
    // Too long says so, in both languages; so does an unpublishing reason past its 500 characters.
    const long = await post('/admin/content/create', { kind: 'notice', titleEn: 'x'.repeat(201) }, 'pt-BR');
    expect(long.body).toMatchObject({
      error: 'text_too_long',
      msg: 'Este texto é longo demais',
      fields: { titleEn: 'Este texto é longo demais' },
    });
    expect(await fieldsOf('/admin/messages/send', { userId: 1, titleEn: 'Hi', bodyEn: 'x'.repeat(20_001) })).toEqual({
      bodyEn: 'This text is too long',
    });
    const longReason = await post('/admin/content/unpublish', { id: published, reason: 'x'.repeat(501) }, 'pt-BR');
    expect(longReason.body).toMatchObject({
      error: 'reason_too_long',
      msg: 'O motivo é longo demais (no máximo 500 caracteres)',
    });

    // Only the two-line notice was written, with its one audit row; the published items are as they were.
    const [items, messages, audits, live] = await tables();
    expect([items, messages, audits, live]).toEqual([before[0]! + 1, before[1], before[2]! + 1, before[3]]);
    expect((await verifyChain(db)).firstBrokenId).toBeNull();
  });

  it('keeps the message centre and its read state per user', async () => {
    await start();
    const admin = await staffToken();
    const demo = await demoToken();
    const other = (await t.register('9000000031')).body.data;
    const centre = async (token: string, query = '', lang = 'en-US') =>
      (await t.call('GET', `/user/notice${query}`, { token, lang })).body.data;

    expect((await t.call('GET', '/user/notice')).body).toMatchObject({ code: -1000, error: 'not_logged_in' });

    const demoCentre = await centre(demo);
    const notices = (await t.call('GET', '/index/notice')).body.data.items.length as number;
    expect(demoCentre.unread).toEqual({ total: notices + 1, message: 1, notice: notices });
    const welcome = demoCentre.items.find((m: { kind: string }) => m.kind === 'message');
    expect(welcome).toMatchObject({ title: 'Welcome to Bourse', isRead: false });
    expect((await centre(demo, '?kind=message', 'pt-BR')).items[0].title).toBe('Boas-vindas ao Bourse');
    expect((await centre(other.token)).unread).toEqual({ total: notices, message: 0, notice: notices });

    // Reading is per user: the other customer cannot touch the demo customer's message.
    const foreign = await t.call('POST', '/user/notice/read', {
      token: other.token,
      body: { kind: 'message', id: String(welcome.id) },
    });
    expect(foreign.body.error).toBe('not_found');
    expect(
      (await t.call('GET', `/user/notice/info?kind=message&id=${welcome.id}`, { token: other.token })).body.error,
    ).toBe('not_found');
    const read = await t.call('POST', '/user/notice/read', {
      token: demo,
      body: { kind: 'message', id: String(welcome.id) },
    });
    expect(read.body.data.unread).toEqual({ total: notices, message: 0, notice: notices });
    const firstNotice = demoCentre.items.find((m: { kind: string }) => m.kind === 'notice');
    await t.call('POST', '/user/notice/read', { token: demo, body: { kind: 'notice', id: String(firstNotice.id) } });
    await t.call('POST', '/user/notice/read', { token: demo, body: { kind: 'notice', id: String(firstNotice.id) } });
    expect((await centre(demo)).unread.notice).toBe(notices - 1);
    expect((await centre(other.token)).unread.notice).toBe(notices);
    const info = await t.call('GET', `/user/notice/info?kind=notice&id=${firstNotice.id}`, {
      token: demo,
      lang: 'pt-BR',
    });
    expect(info.body.data).toMatchObject({ kind: 'notice', isRead: true });

    // A personal message from staff reaches only its user, in their language, and is audited.
    const sent = await t.call('POST', '/admin/messages/send', {
      token: admin,
      json: {
        userId: other.user.id,
        titleEn: 'Your question',
        titlePt: 'Sua pergunta',
        bodyEn: 'Answer.',
        bodyPt: 'Resposta.',
      },
    });
    expect(sent.body.code).toBe(0);
    const otherPt = await centre(other.token, '?kind=message', 'pt-BR');
    expect(otherPt.items).toEqual([
      expect.objectContaining({ title: 'Sua pergunta', body: 'Resposta.', summary: 'Resposta.', isRead: false }),
    ]);
    expect((await centre(demo, '?kind=message')).items).toHaveLength(1);
    const audit = (await t.call('GET', '/admin/audit?action=message.sent', { token: admin })).body.data.items;
    expect(audit[0]).toMatchObject({ targetType: 'user', targetId: String(other.user.id) });
    const sentList = (await t.call('GET', `/admin/messages?userId=${other.user.id}`, { token: admin })).body.data;
    expect(sentList.items[0]).toMatchObject({ titlePt: 'Sua pergunta', sentBy: 'admin', readAt: null });

    // Mark all; a notice published later is unread again; an unpublished one leaves the centre.
    const all = await t.call('POST', '/user/notice/read', { token: other.token, body: { all: '1' } });
    expect(all.body.data.unread).toEqual({ total: 0, message: 0, notice: 0 });
    t.clock.advance(60_000);
    const fresh = (
      await t.call('POST', '/admin/content/create', {
        token: admin,
        json: { kind: 'notice', titleEn: 'Maintenance tonight', titlePt: 'Manutenção hoje à noite', publish: true },
      })
    ).body.data.id as number;
    const afterPublish = await centre(other.token, '', 'pt-BR');
    expect(afterPublish.unread).toEqual({ total: 1, message: 0, notice: 1 });
    expect(afterPublish.items[0]).toMatchObject({
      kind: 'notice',
      id: fresh,
      title: 'Manutenção hoje à noite',
      isRead: false,
    });
    await t.call('POST', '/admin/content/unpublish', {
      token: admin,
      json: { id: fresh, reason: 'Maintenance cancelled' },
    });
    const afterUnpublish = await centre(other.token);
    expect(afterUnpublish.unread.total).toBe(0);
    expect(afterUnpublish.items.some((m: { id: number; kind: string }) => m.kind === 'notice' && m.id === fresh)).toBe(
      false,
    );
    expect(
      (await t.call('POST', '/user/notice/read', { token: other.token, body: { kind: 'notice', id: String(fresh) } }))
        .body.error,
    ).toBe('not_found');

    // Paging and validation.
    const paged = await centre(demo, '?page=1&limit=2');
    expect(paged.items).toHaveLength(2);
    expect(paged.total).toBe(notices + 1);
    const missing = await t.call('POST', '/user/notice/read', { token: demo, json: {}, lang: 'pt-BR' });
    expect(missing.body).toMatchObject({ error: 'validation_failed' });
    expect(Object.keys(missing.body.fields ?? {}).sort()).toEqual(['id', 'kind']);
  });

  it('serves the pages of fixed text: the default until staff save, then their text in each language', async () => {
    await start();
    const admin = await staffToken();
    const intro = (await t.call('GET', '/index/page?slug=companyIntroduction', { lang: 'pt-BR' })).body.data;
    expect(intro).toMatchObject({ slug: 'companyIntroduction', title: 'Sobre esta plataforma', updatedAt: null });
    expect((await t.call('GET', '/index/page?slug=nope')).body.error).toBe('not_found');
    const saved = await t.call('POST', '/admin/content/pages/save', {
      token: admin,
      json: {
        slug: 'loanService',
        titleEn: 'Loans',
        titlePt: 'Empréstimos',
        bodyEn: 'Terms are shown before you apply.',
        bodyPt: 'As condições aparecem antes do pedido.',
      },
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(0);
    expect((await t.call('GET', '/index/page?slug=loanService', { lang: 'pt-BR' })).body.data).toMatchObject({
      title: 'Empréstimos',
      body: 'As condições aparecem antes do pedido.',
    });
    const missing = await t.call('POST', '/admin/content/pages/save', {
      token: admin,
      json: { slug: 'loanService', titleEn: 'Loans', titlePt: '', bodyEn: 'x', bodyPt: 'y' },
    });
    expect(missing.body).toMatchObject({ error: 'validation_failed', fields: { titlePt: expect.any(String) } });
    expect(Object.keys(missing.body.fields ?? {})).toEqual(['titlePt']);
    const pages = (await t.call('GET', '/admin/content/pages', { token: admin })).body.data.items;
    expect(pages.map((p: { slug: string; updatedBy: string | null }) => [p.slug, p.updatedBy])).toEqual([
      ['companyIntroduction', null],
      ['loanService', DEMO_STAFF.username],
    ]);
    expect((await t.call('GET', '/index/page?slug=loanService', { lang: 'en-US' })).body.data.title).toBe('Loans');
    // A customer's token is not a staff session; saving the same text again changes (and audits) nothing.
    const customer = await demoToken();
    const refused = await t.call('POST', '/admin/content/pages/save', {
      token: customer,
      json: { slug: 'loanService', titleEn: 'X', titlePt: 'X', bodyEn: 'X', bodyPt: 'X' },
    });
    expect(refused.body.code).not.toBe(0);
    await t.call('POST', '/admin/content/pages/save', {
      token: admin,
      json: {
        slug: 'loanService',
        titleEn: 'Loans',
        titlePt: 'Empréstimos',
        bodyEn: 'Terms are shown before you apply.',
        bodyPt: 'As condições aparecem antes do pedido.',
      },
    });
    const pageAudit = await db.query("SELECT target_id FROM audit_log WHERE action = 'content.page_updated'");
    expect(pageAudit).toEqual([{ target_id: 'loanService' }]);
  });
});
