// Lets any screen open the side drawer that the shell renders once.
import { createContext, useContext } from 'react';

export interface DrawerControl {
  isOpen: boolean;
  open: () => void;
  close: () => void;
  /** Starts fetching the drawer's code (e.g. when a finger touches the menu button). */
  preload: () => void;
}

export const DrawerContext = createContext<DrawerControl>({
  isOpen: false,
  open: () => {},
  close: () => {},
  preload: () => {},
});

export function useDrawer(): DrawerControl {
  return useContext(DrawerContext);
}
