// Entry point: providers and the router (the build's registerSW.js registers the service worker,
// vite.config.ts). The current screen's chunk and data are requested first (src/boot.ts has usually
// asked for the data already); React starts once the stored language's texts are there, the chunk
// is too (index.html preloads Home's) or the loading view's delay has passed, and the screen's first
// data are in or `firstDataWaitMs` has passed.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
// Catches the browser's install offer before any screen is shown (common/download offers it).
import './app/install-prompt.ts';
import { Providers } from './app/providers.tsx';
import { AppRoutes, preloadScreen } from './app/router.tsx';
import { loadingDelayMs } from './app/shell/lazy-page.tsx';
import { languageReady } from './i18n/index.ts';
import './styles.css';

function render() {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  createRoot(container).render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
}

/**
 * How long the first render may wait for the first screen's data (counted from here; the boot script
 * asked for them long before): on a slow phone one complete render is much cheaper than skeletons
 * first and a second render when the data arrive. Beyond this, the skeletons show.
 */
const firstDataWaitMs = 500;

/** How long the first render may wait for the stored language's texts before showing English. */
const languageWaitMs = 3_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const firstScreen = preloadScreen(window.location.pathname);
void Promise.all([
  Promise.race([languageReady, wait(languageWaitMs)]),
  Promise.race([firstScreen.code, wait(loadingDelayMs)]),
  Promise.race([firstScreen.data, wait(firstDataWaitMs)]),
]).then(render);
