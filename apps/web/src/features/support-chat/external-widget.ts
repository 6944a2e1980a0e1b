// The external chat widget (SPEC §7: when serviceSaleSmartly is set, its script is loaded and its
// floating icon hidden). Loaded once per page life; the icon is hidden through the widget's own
// setting (window.__ssc.setting.hideIcon, set before the script runs) and the window opened with its
// queue (ssq.push('chatOpen')). The server's CSP allows the script's origin only when it is configured.

type WidgetWindow = Window & {
  __ssc?: { setting?: Record<string, unknown> };
  ssq?: { push: (...args: unknown[]) => void };
};

let loading: Promise<void> | null = null;

export function loadExternalWidget(src: string): Promise<void> {
  if (loading) return loading;
  const w = window as WidgetWindow;
  w.__ssc = { ...w.__ssc, setting: { ...w.__ssc?.setting, hideIcon: true } };
  loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('chat widget failed to load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Opens the widget's window; false when its script has not set up its queue. */
export function openExternalWidget(): boolean {
  const ssq = (window as WidgetWindow).ssq;
  if (!ssq) return false;
  ssq.push('chatOpen');
  return true;
}
