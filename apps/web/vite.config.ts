// The customer app's build: React + Vite, served by the server at `/` (SPA fallback to index.html).
// In development the API is proxied to the local server so that the app always calls /ipor-api.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

declare const process: { env: Record<string, string | undefined> };

// BOURSE_API_URL points the proxy elsewhere (e.g. a second server on another port).
const apiTarget = process.env.BOURSE_API_URL ?? 'http://127.0.0.1:3000';
const apiProxy = {
  '/ipor-api': { target: apiTarget, changeOrigin: false },
  '/api': { target: apiTarget, changeOrigin: false },
};

/**
 * Adds to index.html, in the built app:
 * - the boot script (src/boot.ts, its own entry) before the app's entry, so that it runs as soon as
 *   its few KB have loaded and sends the first screen's calls while the app's code downloads;
 * - `<link rel="modulepreload">` (and the stylesheets) of the Home screen's chunks, so that on a cold
 *   start they download alongside the entry instead of after it has run. Home is the screen most
 *   visits land on; elsewhere the few KB come in parallel and serve the first tap on the Home tab.
 */
function bootAndHomePreload(boot = '/src/boot.ts', screen = '/src/features/markets/home-page.tsx'): Plugin {
  return {
    name: 'bourse:boot-and-home-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html'));
        const bootChunk = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith(boot));
        const home = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(screen));
        if (!entry || !bootChunk || !home) throw new Error('bootAndHomePreload: entry, boot or Home chunk not found');
        const entryFiles = new Set([entry.fileName, ...entry.imports]);
        if (bootChunk.imports.some((file) => (byName.get(file)?.code.length ?? 0) > 8_000)) {
          throw new Error(`bootAndHomePreload: the boot script imports a large chunk (${bootChunk.imports})`);
        }
        // async: runs as soon as it has loaded, not after the page's stylesheets like a deferred script.
        const bootTags = [
          `<script type="module" async crossorigin src="/${bootChunk.fileName}"></script>`,
          ...bootChunk.imports
            .filter((file) => !entryFiles.has(file))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ];
        const loaded = new Set([...entryFiles, bootChunk.fileName, ...bootChunk.imports]);
        const scripts: string[] = [];
        const styles = new Set<string>();
        const visit = (fileName: string) => {
          if (loaded.has(fileName)) return;
          loaded.add(fileName);
          const chunk = byName.get(fileName);
          if (!chunk) return;
          scripts.push(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
          for (const next of chunk.imports) visit(next);
        };
        visit(home.fileName);
        const homeTags = [
          ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
          ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
        ];
        const entryTag = /\s*<script type="module" crossorigin src="\/assets\/[^"]+"><\/script>/;
        if (!entryTag.test(html)) throw new Error('bootAndHomePreload: the entry script tag was not found');
        return html
          .replace(entryTag, (tag) => `\n    ${bootTags.join('\n    ')}${tag}`)
          .replace(/\s*<\/head>/, `\n    ${homeTags.join('\n    ')}\n  </head>`);
      },
    },
  };
}

/**
 * The service worker (Workbox, generated at build time): makes the app installable and lets it open
 * offline. It precaches this build's files under their content revisions and, when a new build's
 * worker activates, drops every file the new build no longer lists, so old releases' chunks do not
 * pile up in the cache. Navigations get the precached index.html (the SPA's routes); the API
 * (/ipor-api), the trading API (/api) and the staff console (/admin) are never cached or answered by it.
 */
const serviceWorker = VitePWA({
  registerType: 'autoUpdate',
  injectRegister: 'script-defer', // registerSW.js: a file, as the CSP allows no inline script
  manifest: false, // public/manifest.webmanifest, linked from index.html
  workbox: {
    globPatterns: ['**/*.{html,js,css,svg,png,webmanifest}'],
    // A new build's worker takes over at once, as the hand-written one did (with this injectRegister
    // the plugin leaves both off, and the new worker would wait until every tab had closed).
    skipWaiting: true,
    clientsClaim: true,
    cleanupOutdatedCaches: true, // caches of older Workbox precache formats
    navigateFallback: '/index.html',
    // The trading API (/api/v3) is the server's too: a browser opening one of its URLs gets its JSON.
    navigateFallbackDenylist: [/^\/ipor-api(\/|$)/, /^\/api(\/|$)/, /^\/admin(\/|$)/],
  },
});

export default defineConfig({
  base: '/',
  plugins: [react(), bootAndHomePreload(), serviceWorker],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The app (index.html) and the boot script that index.html runs first (see bootAndHomePreload).
      input: { index: 'index.html', boot: 'src/boot.ts' },
    },
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
});
