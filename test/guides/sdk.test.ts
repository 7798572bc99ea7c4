// docs/sdk.md against the SDK itself: every method of the users area and of the session it keeps is described there,
// so a method added later cannot be left out of the guide.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SessionManager, createClient } from '../../packages/sdk/src/index.js';

const guide = readFileSync(new URL('../../docs/sdk.md', import.meta.url), 'utf8');
/** The names of `names` that the guide never shows called (`name(`). */
const undescribed = (names: string[]) => names.filter((name) => !guide.includes(`${name}(`));

it('describes every method of client.auth', () => {
  const { auth } = createClient({ baseUrl: 'https://api.example.test', authenticationId: 'a', clientKey: 'k' });
  expect(undescribed(Object.keys(auth))).toEqual([]);
});

it('describes every public method of the session, client.core.session', () => {
  const methods = Object.getOwnPropertyNames(SessionManager.prototype).filter((name) => name !== 'constructor');
  expect(methods).toContain('refresh');
  expect(undescribed(methods)).toEqual([]);
  const statics = Object.getOwnPropertyNames(SessionManager).filter(
    (name) => typeof SessionManager[name as keyof typeof SessionManager] === 'function',
  );
  expect(undescribed(statics.map((name) => `SessionManager.${name}`))).toEqual([]);
});
