// Code-split screens (SPEC §8): a chunk is fetched on first visit; a loading view appears only after
// 200 ms (a CSS spinner: no antd-mobile in the first load), and a chunk that fails or takes longer
// than 60 s shows an error view with "try again".

import {
  Component,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

export const loadingDelayMs = 200;
export const chunkTimeoutMs = 60_000;

type Loader = () => Promise<{ default: ComponentType }>;

function withTimeout<T>(pending: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chunk_timeout')), timeoutMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export function DelayedLoading() {
  const { t } = useTranslation();
  const [isVisible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), loadingDelayMs);
    return () => clearTimeout(timer);
  }, []);
  if (!isVisible) return <div className="page-loading" aria-hidden="true" />;
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{t('common.loading')}</span>
    </div>
  );
}

export function LoadErrorView() {
  const { t } = useTranslation();
  return (
    <div className="state-view" role="alert">
      <p className="state-view__title">{t('common.loadError')}</p>
      <p className="state-view__hint">{t('common.loadErrorHint')}</p>
      <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
        {t('common.retry')}
      </button>
    </div>
  );
}

class ChunkBoundary extends Component<{ children: ReactNode }, { hasError: boolean }> {
  override state = { hasError: false };
  static getDerivedStateFromError() {
    return { hasError: true };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('screen failed to load', error, info.componentStack);
  }
  override render() {
    return this.state.hasError ? <LoadErrorView /> : this.props.children;
  }
}

/** A code-split screen: its lazy component, and the loaded one once its chunk has arrived. */
export interface LazyScreen {
  Lazy: LazyExoticComponent<ComponentType>;
  loaded: () => ComponentType | null;
  /** Starts loading the chunk (once); settles when it has loaded or failed. */
  preload: () => Promise<void>;
}

/** A code-split screen whose chunk load fails after `chunkTimeoutMs`. */
export function lazyScreen(loader: Loader): LazyScreen {
  let loaded: ComponentType | null = null;
  let pending: Promise<{ default: ComponentType }> | null = null;
  const load = () => {
    pending ??= withTimeout(loader(), chunkTimeoutMs).then((module) => {
      loaded = module.default;
      return module;
    });
    return pending;
  };
  return {
    Lazy: lazy(load),
    loaded: () => loaded,
    preload: () =>
      load().then(
        () => undefined,
        () => undefined, // the error view shows it when the screen renders
      ),
  };
}

/**
 * Renders a code-split screen with the delayed loading view and the error view. A screen whose chunk
 * is already there (preloaded at start-up) renders at once, without a round through Suspense.
 */
export function ScreenHost({ screen }: { screen: LazyScreen }) {
  // Chosen once per screen (routes reuse this host): switching from the lazy component to the loaded
  // one later would remount the screen.
  const Screen = useMemo(() => screen.loaded() ?? screen.Lazy, [screen]);
  return (
    <ChunkBoundary>
      <Suspense fallback={<DelayedLoading />}>
        <Screen />
      </Suspense>
    </ChunkBoundary>
  );
}
