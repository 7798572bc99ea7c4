// The password check alone (PBKDF2 through WebCrypto, as `login` runs it), in a process of its own: asked
// `{ seconds }`, it verifies the password `connections` at a time for that long and answers how many it verified.
import { hashPassword, verifyPassword } from '../../../packages/engine/src/shared/password.js';
import { CONNECTIONS } from '../processes.js';

const stored = await hashPassword('login-0-pw');
process.on('message', async ({ seconds }: { seconds: number }) => {
  const end = performance.now() + seconds * 1000;
  let verified = 0;
  const worker = async () => {
    while (performance.now() < end) if (await verifyPassword('login-0-pw', stored)) verified++;
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  process.send!({ verified });
});
console.log(`ready ${JSON.stringify({})}`);
