// The route table: `/` is pages/common/start, every SPEC page at /pages/<group>/<name>, and a
// catch-all not-found screen. The shell (drawer, navigation hook) wraps every route.
import { createBrowserRouter, type RouteObject } from 'react-router';
import { builtPages, specPages } from './pages.ts';
import { lazyScreen, ScreenHost } from './shell/lazy-page.tsx';
import { Shell } from './shell/shell.tsx';
import { ComingSoonPage, NotFoundPage } from './shell/status-pages.tsx';

function pageRoutes(): RouteObject[] {
  const routes: RouteObject[] = [];
  for (const [group, names] of Object.entries(specPages)) {
    for (const name of names) {
      const key = `${group}/${name}`;
      const loader = builtPages[key];
      if (loader) {
        routes.push({ path: `/pages/${key}`, element: <ScreenHost screen={lazyScreen(loader)} /> });
      } else {
        routes.push({ path: `/pages/${key}`, element: <ComingSoonPage titleKey={`titles.${group}.${name}`} /> });
      }
    }
  }
  return routes;
}

export function createAppRouter() {
  const routes = pageRoutes();
  const start = routes.find((route) => route.path === '/pages/common/start');
  return createBrowserRouter([
    {
      element: <Shell />,
      children: [{ path: '/', element: start?.element }, ...routes, { path: '*', element: <NotFoundPage /> }],
    },
  ]);
}
