// Downloads a monthly statement (GET /user/statement, CSV or PDF) as a file: the call needs the session's
// token header, so it is fetched, then handed to the browser as an object URL. A refusal arrives as
// SPEC's JSON envelope and is thrown with its translated message.
import { getToken } from '../../app/session.ts';
import { currentLanguage } from '../../i18n/index.ts';

export async function downloadStatement(month: string, format: 'csv' | 'pdf'): Promise<void> {
  const token = getToken();
  const response = await fetch(`/ipor-api/user/statement?month=${encodeURIComponent(month)}&format=${format}`, {
    headers: { ...(token ? { token } : {}), lang: currentLanguage(), 'X-Requested-With': 'XMLHttpRequest' },
  });
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    const body = (await response.json()) as { msg?: string };
    throw new Error(body.msg ?? 'error');
  }
  if (!response.ok) throw new Error(response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `statement-${month}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
