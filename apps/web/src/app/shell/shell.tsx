// The root layout: registers the router's navigate for non-React code, renders the current screen
// and the side drawer, and keeps the login info fresh while signed in. The drawer (and antd-mobile's
// Popup behind it) is a separate chunk, fetched and mounted (closed) a few seconds after the first
// screen has loaded, when a finger touches the menu button, or at the latest when the drawer opens.
import { Component, lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useLoginInfo } from '../api.ts';
import { setNavigate } from '../navigation.ts';
import { preloadToast } from '../toast.ts';
import { DrawerContext, type DrawerControl } from './drawer-context.ts';

const loadDrawer = () => import('./drawer.tsx');
const lazyDrawer = () => lazy(() => loadDrawer().then((module) => ({ default: module.Drawer })));

/** A drawer chunk that failed to load (offline) shows nothing; the next opening tries again. */
class DrawerBoundary extends Component<{ children: ReactNode; onError: () => void }, { hasError: boolean }> {
  override state = { hasError: false };
  static getDerivedStateFromError() {
    return { hasError: true };
  }
  override componentDidCatch() {
    this.props.onError();
  }
  override render() {
    return this.state.hasError ? null : this.props.children;
  }
}

/** Quiet time after the page's load event before the drawer is fetched: the first screen's own
 * code, data and images go first on a slow link. */
const preloadAfterLoadMs = 3_000;

/** Runs `task` once the page has loaded, a few seconds have passed and the browser is idle. */
function afterFirstScreen(task: () => void): () => void {
  let timer = 0;
  let idle = 0;
  const start = () => {
    timer = window.setTimeout(() => {
      if ('requestIdleCallback' in window) idle = window.requestIdleCallback(task, { timeout: 5_000 });
      else task();
    }, preloadAfterLoadMs);
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    window.removeEventListener('load', start);
    window.clearTimeout(timer);
    if (idle) window.cancelIdleCallback(idle);
  };
}

export function Shell() {
  const navigate = useNavigate();
  setNavigate((path, options) => {
    void navigate(path, options);
  });
  useLoginInfo();
  const [isOpen, setOpen] = useState(false);
  const [isDrawerMounted, setDrawerMounted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // A new lazy component per attempt: React.lazy keeps a failed import's error.
  const Drawer = useMemo(lazyDrawer, [attempt]);
  const control = useMemo<DrawerControl>(
    () => ({
      isOpen,
      open: () => {
        setDrawerMounted(true);
        setOpen(true);
      },
      close: () => setOpen(false),
      preload: () => void loadDrawer().catch(() => undefined),
    }),
    [isOpen],
  );
  useEffect(
    () =>
      afterFirstScreen(() => {
        preloadToast();
        loadDrawer().then(
          () => setDrawerMounted(true),
          () => undefined, // tried again when the drawer is opened
        );
      }),
    [],
  );
  return (
    <DrawerContext.Provider value={control}>
      <div className="app-column">
        <Outlet />
      </div>
      {isDrawerMounted && (
        <DrawerBoundary
          key={attempt}
          onError={() => {
            setOpen(false);
            setDrawerMounted(false);
            setAttempt((n) => n + 1);
          }}
        >
          <Suspense fallback={null}>
            <Drawer isOpen={isOpen} onClose={control.close} />
          </Suspense>
        </DrawerBoundary>
      )}
    </DrawerContext.Provider>
  );
}
