// Proves the hand-over of the boot script's early calls to the request wrapper: an answer is used
// only for the very same GET (URL and headers: language, token), only once, only while fresh, and
// the wrapper then treats it like any other answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { homeCalls } from '../features/markets/home-requests.ts';
import { earlyMaxAgeMs, sendEarly, takeEarly } from './early-requests.ts';
import { createRequest, describeRequest, type RequestDeps } from './request.ts';

const identity = { getToken: () => null, getLanguage: () => 'en-US' };

let now = 1_000;
const fetchCalls: string[] = [];

beforeEach(() => {
  fetchCalls.length = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      fetchCalls.push(url);
      return Promise.resolve(new Response(JSON.stringify({ code: 0, msg: '', data: { url } })));
    }),
  );
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('early requests', () => {
  it('hands an early answer to the same call once, then leaves calls to the network', async () => {
    const early = sendEarly(homeCalls.news);
    const { url, init } = describeRequest(homeCalls.news.path, { data: homeCalls.news.data }, identity);
    expect(url).toBe('/ipor-api/index/news?page=1&limit=5');
    expect(fetchCalls).toEqual([url]);
    expect(takeEarly(url, init)).toBe(early);
    expect(takeEarly(url, init)).toBeNull();
  });

  it('is not used for another language, a token, a POST or after earlyMaxAgeMs', () => {
    sendEarly(homeCalls.ads);
    const { url, init } = describeRequest(homeCalls.ads.path, {}, identity);
    expect(takeEarly(url, { ...init, headers: { ...init.headers, lang: 'pt-BR' } })).toBeNull();
    expect(takeEarly(url, { ...init, headers: { ...init.headers, token: 't' } })).toBeNull();
    expect(takeEarly(url, { ...init, method: 'POST' })).toBeNull();
    now += earlyMaxAgeMs + 1;
    expect(takeEarly(url, init)).toBeNull();
  });

  it('goes through the request wrapper like any answer', async () => {
    sendEarly(homeCalls.countries);
    const network = vi.fn(() => Promise.reject(new Error('not expected')));
    const deps: RequestDeps = {
      ...identity,
      fetch: ((input: string, init?: RequestInit) => takeEarly(input, init) ?? network()) as typeof fetch,
      onSessionInvalid: () => {},
      showToast: () => {},
      showLoading: () => {},
      hideLoading: () => {},
      networkErrorMessage: () => 'network',
    };
    const body = await createRequest(deps)(homeCalls.countries.path, { isBackground: true });
    expect(body.data).toEqual({ url: '/ipor-api/stock/index/country/list' });
    expect(network).not.toHaveBeenCalled();
  });

  it('rejects when the caller aborts while the early answer is still on its way', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    sendEarly(homeCalls.notices);
    const { url, init } = describeRequest(homeCalls.notices.path, {}, identity);
    const controller = new AbortController();
    const taken = takeEarly(url, { ...init, signal: controller.signal });
    controller.abort();
    await expect(taken).rejects.toBeDefined();
    answer(new Response('{}'));
  });
});
