// The password check alone (PBKDF2 through the Node server's `pbkdf2` capability, Node's `crypto.pbkdf2`, as `login`
// runs it there: the cheapest way this platform has to the same hash), in a process of its own: asked `{ seconds }`, it
// verifies the password `connections` at a time for that long and answers how many it verified.
import { Clock } from '../../../packages/engine/src/shared/clock.js';
import { Moment } from '../../../packages/engine/src/shared/moment.js';
import { hashPassword, verifyPassword } from '../../../packages/engine/src/shared/auth/password.js';
import { pbkdf2 } from '../../src/pbkdf2.js';
import { CONNECTIONS } from '../processes.js';

const moment = new Moment(new Clock());
const stored = await hashPassword(moment, 'login-0-pw', pbkdf2);
process.on('message', async ({ seconds }: { seconds: number }) => {
  const end = performance.now() + seconds * 1000;
  let verified = 0;
  const worker = async () => {
    while (performance.now() < end) if (await verifyPassword(moment, 'login-0-pw', stored, pbkdf2)) verified++;
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  process.send!({ verified });
});
console.log(`ready ${JSON.stringify({})}`);
