// The browser's install offer (`beforeinstallprompt`, Chromium browsers): it fires once, soon after
// the page loads, usually before anyone opens the install page, so it is caught here at start-up
// (imported by main.tsx) and kept until the install page offers it as a button. Safari and Firefox
// never fire it; their pages show the manual steps instead.

import { useSyncExternalStore } from 'react';

/** The part of Chromium's BeforeInstallPromptEvent this app uses (not in TypeScript's DOM types). */
type InstallPromptEvent = Event & {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
};

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keeps the browser's own mini-bar from showing: the install page offers it instead.
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    notify();
  });
}

/** Whether the app runs from the home screen (installed) rather than in a browser tab. */
export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** True while the browser has offered to install the app and the offer has not been used. */
export function useInstallOffer(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => deferred !== null,
    () => false,
  );
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return 'unavailable';
  deferred = null;
  notify();
  await event.prompt();
  return (await event.userChoice).outcome;
}
