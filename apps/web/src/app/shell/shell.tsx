// The root layout: registers the router's navigate for non-React code, renders the current screen
// and the side drawer, and keeps the login info fresh while signed in.
import { useMemo, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useLoginInfo } from '../api.ts';
import { setNavigate } from '../navigation.ts';
import { Drawer } from './drawer.tsx';
import { DrawerContext, type DrawerControl } from './drawer-context.ts';

export function Shell() {
  const navigate = useNavigate();
  setNavigate((path, options) => {
    void navigate(path, options);
  });
  useLoginInfo();
  const [isOpen, setOpen] = useState(false);
  const control = useMemo<DrawerControl>(
    () => ({ isOpen, open: () => setOpen(true), close: () => setOpen(false) }),
    [isOpen],
  );
  return (
    <DrawerContext.Provider value={control}>
      <div className="app-column">
        <Outlet />
      </div>
      <Drawer isOpen={isOpen} onClose={control.close} />
    </DrawerContext.Provider>
  );
}
