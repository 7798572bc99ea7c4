// The one client of the upload benchmark, in a process of its own, as the issue measured it: fetch (what
// @basekit/sdk sends with on Node) streaming a multipart body made 1 MiB at a time, hashing what it sends as an
// uploader that checks the stored file does (MD5, the file info's `md5Hash`). Asked `{ url, headers, size }`, it
// answers the seconds until the whole answer arrived and the MD5 of the file sent.
import { createHash, randomBytes } from 'node:crypto';

const MiB = 1024 * 1024;
const piece = new Uint8Array(randomBytes(MiB));
const boundary = 'basekit-upload-bench';
const encoder = new TextEncoder();
const head = encoder.encode(
  `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].replacing"\r\n\r\ntrue\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="big.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n',
);
const tail = encoder.encode(`\r\n--${boundary}--\r\n`);

async function upload(url: string, headers: Record<string, string>, size: number) {
  const started = performance.now();
  const md5 = createHash('md5');
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(head),
    pull(controller) {
      if (sent === size) {
        controller.enqueue(tail);
        return controller.close();
      }
      md5.update(piece);
      controller.enqueue(piece.slice()); // a new buffer each time, as from a network or a file
      sent += MiB;
    },
  });
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text}`);
  return { seconds: (performance.now() - started) / 1000, md5: md5.digest('hex') };
}

process.on(
  'message',
  async ({ url, headers, size }: { url: string; headers: Record<string, string>; size: number }) => {
    process.send!(await upload(url, headers, size));
  },
);
console.log(`ready ${JSON.stringify({})}`);
