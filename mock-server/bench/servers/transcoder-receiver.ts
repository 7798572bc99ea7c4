// The transcoder bench's client, alone in its process: a Receiver (the SDK's delivery receiver and webhook, as the
// tests use it) that also serves the source and the watermark from `<root>/src`. Its CPU time is the client's, not
// the job's: the bench reads it from /proc and prints it apart. Asked `{ requestId, count }`, it answers once that
// request has `count` notifications: `{ notes, deliveries, firstDelivery, lastNotification }` (times in ms since the
// epoch, comparable across processes).
import { Receiver } from '../../test/transcoder/support.js';

const now = () => performance.timeOrigin + performance.now();
const receiver = new Receiver(process.argv[2]!);
let firstDelivery = 0;
let lastNotification = 0;
const receive = receiver.fetch;
receiver.fetch = async (request) => {
  const { pathname } = new URL(request.url);
  if (!firstDelivery && pathname === '/upload') firstDelivery = now();
  const response = await receive(request);
  if (pathname === '/webhook') lastNotification = now();
  return response;
};
await receiver.listen();
process.on('message', async ({ requestId, count }: { requestId: string; count: number }) => {
  const notes = await receiver.notificationsOf(requestId, count, 600);
  process.send!({
    notes,
    deliveries: receiver.deliveriesOf(notes[0]!.payload.videoId as string).length,
    firstDelivery,
    lastNotification,
  });
  firstDelivery = 0;
});
console.log(`ready ${JSON.stringify({ url: receiver.url })}`);
