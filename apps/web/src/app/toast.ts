// The request layer's toasts without antd-mobile in the first load: Toast (and the animation library
// behind it) is fetched on first use. Calls keep their order: each waits on the same import.

type ToastModule = typeof import('antd-mobile/es/components/toast');

let loading: Promise<ToastModule['default']> | null = null;

function toast(): Promise<ToastModule['default']> {
  loading ??= Promise.all([
    import('antd-mobile/es/components/toast'),
    import('./antd-mobile-react-19.ts'), // React 19: how Toast mounts itself
  ]).then(([module]) => module.default);
  return loading;
}

/** Starts fetching the toast code (e.g. when the browser is idle after the first screen). */
export function preloadToast(): void {
  void toast().catch(() => {
    loading = null;
  });
}

export function showToast(content: string, durationMs?: number): void {
  void toast().then((Toast) => Toast.show({ content, duration: durationMs }));
}

export function showLoadingToast(content: string): void {
  void toast().then((Toast) => Toast.show({ icon: 'loading', content, duration: 0 }));
}

export function clearToast(): void {
  // Nothing can be showing before the module has loaded once.
  if (loading) void loading.then((Toast) => Toast.clear());
}
