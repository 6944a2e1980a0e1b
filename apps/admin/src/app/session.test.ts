import { describe, expect, it } from 'vitest';
import { consumeSessionEndedByServer, getToken, lastSessionEnd, setToken, subscribeToken } from './session.ts';

describe('staff session token', () => {
  it('notifies on change and remembers why a session ended', () => {
    let changes = 0;
    const unsubscribe = subscribeToken(() => {
      changes += 1;
    });
    setToken('t-1');
    expect(getToken()).toBe('t-1');
    expect(lastSessionEnd()).toBeNull();

    setToken(null, 'server');
    expect(getToken()).toBeNull();
    expect(consumeSessionEndedByServer()).toBe(true);
    expect(consumeSessionEndedByServer()).toBe(false); // said once

    setToken('t-2');
    setToken(null, 'user');
    expect(lastSessionEnd()).toBe('user');
    expect(consumeSessionEndedByServer()).toBe(false);
    unsubscribe();
    expect(changes).toBe(4);
  });
});
