// Owns how antd-mobile 5 mounts its imperative views (Toast.show, Dialog.confirm, ActionSheet…) under
// React 19, which removed the ReactDOM.render they used: each gets a createRoot of its own, which is
// antd-mobile's documented way (unstableSetRender, https://mobile.ant.design/guide/v5-for-19).
// Must hold: imported (for its effect) by every module that calls those views, before they are shown.
// Must not: be imported by the first load (it brings antd-mobile's render helpers; toast.ts loads it lazily).
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot } from 'react-dom/client';

unstableSetRender((node, container) => {
  const root = createRoot(container);
  root.render(node);
  return async () => {
    // Unmounting while React renders (a view closed from its own effect) warns: wait one task.
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
  };
});
