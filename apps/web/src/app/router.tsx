// The route table: `/` is pages/common/start, every SPEC page (and the few extra ones) at /pages/<group>/<name>, and a
// catch-all not-found screen. The shell (drawer, navigation hook) wraps every route.
// Declarative routing (<BrowserRouter> + useRoutes): the app has no loaders or actions, and leaving
// out the data router keeps ~16 KB (gzip) of react-router out of the first load.
import { type RouteObject, useRoutes } from 'react-router';
import { builtPages, extraPages, screenPrefetch, specPages } from './pages.ts';
import { queryClient } from './providers.tsx';
import { type LazyScreen, lazyScreen, ScreenHost } from './shell/lazy-page.tsx';
import { Shell } from './shell/shell.tsx';
import { NotFoundPage } from './shell/status-pages.tsx';

const startKey = 'common/start';

/** "group/name" of a SPEC page path ("/" is the start page), or null. */
export function pageKey(pathname: string): string | null {
  if (pathname === '/' || pathname === '') return startKey;
  const match = /^\/pages\/([\w-]+\/[\w-]+)\/?$/.exec(pathname);
  return match?.[1] ?? null;
}

const screens = new Map<string, LazyScreen>();

/**
 * Starts loading the screen of `pathname` (its code and, for screens that have one, its data) before
 * React renders it. `code` settles when the chunk has loaded (or failed: the screen's error view
 * shows that), `data` when the screen's first data are in (or failed: the screen shows that too).
 */
export function preloadScreen(pathname: string): { code: Promise<void>; data: Promise<void> } {
  const key = pageKey(pathname);
  const done = Promise.resolve();
  if (!key) return { code: done, data: done };
  return { data: screenPrefetch[key]?.(queryClient) ?? done, code: screens.get(key)?.preload() ?? done };
}

function pageRoutes(): RouteObject[] {
  const routes: RouteObject[] = [];
  for (const [group, names] of [...Object.entries(specPages), ...Object.entries(extraPages)]) {
    for (const name of names) {
      const key = `${group}/${name}`;
      const loader = builtPages[key];
      if (!loader) continue; // none: pages.test.ts checks that every page has its screen
      const screen = lazyScreen(loader);
      screens.set(key, screen);
      routes.push({ path: `/pages/${key}`, element: <ScreenHost screen={screen} /> });
    }
  }
  return routes;
}

function appRoutes(): RouteObject[] {
  const routes = pageRoutes();
  const start = routes.find((route) => route.path === `/pages/${startKey}`);
  return [
    {
      element: <Shell />,
      children: [{ path: '/', element: start?.element }, ...routes, { path: '*', element: <NotFoundPage /> }],
    },
  ];
}

const routes = appRoutes();

/** The app's routes; render inside a <BrowserRouter>. */
export function AppRoutes() {
  return useRoutes(routes);
}
