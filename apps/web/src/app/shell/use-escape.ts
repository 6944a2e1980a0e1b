// Esc closes the drawer, sheets and modals (SPEC §2 key handling).
import { useEffect } from 'react';

export function useEscape(isActive: boolean, onEscape: () => void): void {
  useEffect(() => {
    if (!isActive) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onEscape();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isActive, onEscape]);
}
