// The customer app's service worker across a release (issue 22 item 6): a phone loads build A, whose
// worker precaches A's files; the site then serves build B (a second real build of the same app whose
// hashed files all have other names) and the page reloads. B's worker must take over and leave no file
// of A in any cache (the hand-written worker kept every release's chunks under one fixed cache name),
// while the shell still opens offline from B's precache.
//
// The builds are served by a small static server here, stopped and started again on the same port
// between A and B (one origin, as a deployment keeps): the Bourse server serves only apps/web/dist.
// The API answers 503: what is cached does not depend on it, and the worker never touches it.
//
//   npm run build -w @bourse/web && npx vitest run --config vitest.e2e.config.ts e2e/web-service-worker.e2e.test.ts

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, phonePage, ROOT } from './harness.ts';

const WEB = join(ROOT, 'apps/web');
const BUILD_A = join(WEB, 'dist');
const HOME = '/pages/tabbar/home';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/** Serves `root` on `port` as the Bourse server serves the app: hashed assets immutable, the rest no-cache, SPA fallback. */
function serveBuild(root: string, port: number): Promise<HttpServer> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    if (path.startsWith('/ipor-api')) {
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"code":503,"msg":"offline test"}');
      return;
    }
    let file = join(root, normalize(path));
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
      if (extname(path)) {
        response.writeHead(404).end();
        return;
      }
      file = join(root, 'index.html');
    }
    response
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      })
      .end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const close = (server: HttpServer) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** The hashed files (JS and CSS under /assets/) of a build. */
function hashedAssets(dist: string): string[] {
  return readdirSync(join(dist, 'assets'))
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => `/assets/${name}`);
}

/** Every URL path held by any cache of the page's origin. */
async function cachedPaths(page: Page): Promise<string[]> {
  // Runs in the page (the e2e project is typed without the DOM library).
  return page.evaluate<string[]>(`(async () => {
    const paths = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  })()`);
}

/** Polls `check` every 250 ms until it answers true; after `timeoutMs`, fails with `what`. */
async function until(check: () => Promise<boolean>, what: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what()} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until a worker controls the page, has no newer one installing or waiting, and the caches hold all of `expected`. */
async function waitForWorker(page: Page, expected: string[]): Promise<void> {
  let missing = expected;
  await until(
    async () => {
      const settled = await page.evaluate<boolean>(`navigator.serviceWorker.getRegistration().then((r) =>
        navigator.serviceWorker.controller !== null && !!r && !!r.active && !r.installing && !r.waiting)`);
      const held = new Set(await cachedPaths(page));
      missing = expected.filter((path) => !held.has(path));
      return settled && missing.length === 0;
    },
    () => `worker not settled or not precached (${missing.length} missing: ${missing.slice(0, 5).join(', ')})`,
  );
}

let browser: Browser;
let buildB: string;
let port: number;
let site: HttpServer | null = null;

beforeAll(async () => {
  if (!existsSync(join(BUILD_A, 'sw.js'))) throw new Error('apps/web/dist has no sw.js: run `npm run build` first');
  // Build B: the same app and config; "-next" in every hashed name stands for a release whose code changed.
  buildB = mkdtempSync(join(tmpdir(), 'bourse-web-next-'));
  await build({
    root: WEB,
    configFile: join(WEB, 'vite.config.ts'),
    logLevel: 'warn',
    // Web workers (the captcha's proof of work) are bundled apart: their names change with the release too.
    worker: {
      rolldownOptions: {
        output: {
          entryFileNames: 'assets/[name]-next-[hash].js',
          chunkFileNames: 'assets/[name]-next-[hash].js',
          assetFileNames: 'assets/[name]-next-[hash][extname]',
        },
      },
    },
    build: {
      outDir: buildB,
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          entryFileNames: 'assets/[name]-next-[hash].js',
          chunkFileNames: 'assets/[name]-next-[hash].js',
          assetFileNames: 'assets/[name]-next-[hash][extname]',
        },
      },
    },
  });
  browser = await launchBrowser();
  const probe = await serveBuild(BUILD_A, 0);
  port = (probe.address() as { port: number }).port;
  await close(probe);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (site) await close(site);
  if (buildB) rmSync(buildB, { recursive: true, force: true });
});

describe('service worker across a release', () => {
  it("drops the old build's files from the cache when the new build's worker takes over", async () => {
    const assetsA = hashedAssets(BUILD_A);
    const assetsB = hashedAssets(buildB);
    // The two builds share no hashed file, so every one of A's must go.
    expect(assetsB.filter((path) => assetsA.includes(path))).toEqual([]);
    expect(assetsA.length).toBeGreaterThan(10);

    const { context, page } = await phonePage(browser);
    try {
      site = await serveBuild(BUILD_A, port);
      const origin = `http://127.0.0.1:${port}`;
      await page.goto(`${origin}${HOME}`);
      await waitForWorker(page, ['/index.html', '/manifest.webmanifest', '/icons/icon.svg', ...assetsA]);

      // The release: the same origin now serves build B.
      await close(site);
      site = await serveBuild(buildB, port);
      await page.reload();
      await page.evaluate(`navigator.serviceWorker.getRegistration().then((r) => r && r.update())`);
      await waitForWorker(page, ['/index.html', ...assetsB]);
      // Activation removes the old entries; give it a moment after the new worker became active.
      let left = assetsA;
      await until(
        async () => {
          const held = new Set(await cachedPaths(page));
          left = assetsA.filter((path) => held.has(path));
          return left.length === 0;
        },
        () => `${left.length} of build A's ${assetsA.length} files still cached (${left.slice(0, 5).join(', ')})`,
        15_000,
      );

      // Still installable and opening offline: the manifest is precached and the shell comes from B's cache.
      const held = await cachedPaths(page);
      expect(held).toContain('/manifest.webmanifest');
      await close(site);
      site = null;
      await page.reload();
      const scripts = await page.evaluate<string[]>(`[...document.scripts].map((script) => script.src)`);
      expect(scripts.some((src) => src.includes('-next-'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
