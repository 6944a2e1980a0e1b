// The localStorage keys of SPEC §3, in a module without dependencies (the boot script reads them too).
export const storageKeys = {
  token: 'userToken',
  userInfo: 'userInfo',
  language: 'smcLanguage',
  inviteCode: 'inviteCode',
  areaCode: 'areaCode',
  stockCountry: 'stockCountry',
} as const;

/** localStorage.getItem that returns null where storage is unavailable. */
export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** localStorage.setItem that does nothing where storage is unavailable (a remembered choice is a nicety). */
export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage unavailable
  }
}
