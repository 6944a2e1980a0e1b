// A way for code outside React (the request wrapper) to change the page. The router registers its
// navigate function at start-up; before that, a full page load is used.

type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (path, options) => {
  if (options?.replace) window.location.replace(path);
  else window.location.assign(path);
};

export function setNavigate(navigate: Navigate): void {
  navigateImpl = navigate;
}

export function navigateTo(path: string, options?: { replace?: boolean }): void {
  navigateImpl(path, options);
}

export const loginPath = '/pages/account/login';
export const homePath = '/pages/tabbar/home';

/** Where the crypto sign-in (account/coinLogin) lands: the crypto trading screen. */
export const coinHomePath = '/pages/coin/index';

/** Only same-app paths are accepted as a redirect target after sign-in; otherwise `fallback`. */
export function safeRedirect(target: string | null | undefined, fallback = homePath): string {
  if (
    target &&
    /^\/pages\/[\w-]+\/[\w-]+(\?[\w=&%.-]*)?$/.test(target) &&
    !target.startsWith(loginPath) &&
    !target.startsWith('/pages/account/coinLogin')
  ) {
    return target;
  }
  return fallback;
}
