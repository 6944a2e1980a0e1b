// Lets any screen open the side drawer that the shell renders once.
import { createContext, useContext } from 'react';

export interface DrawerControl {
  isOpen: boolean;
  open: () => void;
  close: () => void;
}

export const DrawerContext = createContext<DrawerControl>({ isOpen: false, open: () => {}, close: () => {} });

export function useDrawer(): DrawerControl {
  return useContext(DrawerContext);
}
