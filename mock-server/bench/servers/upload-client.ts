// The one client of the upload benchmark, in a process of its own: asked `{ url, headers, size }`, it sends one
// multipart upload of a `size`-byte file (1 MiB at a time, as fast as the server takes it) over node:http, hashing what
// it sends as an uploader that checks the stored file does (MD5, the file info's `md5Hash`), and answers the seconds
// until the whole answer arrived and the MD5 of the file sent.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';

const MiB = 1024 * 1024;
const piece = randomBytes(MiB);
const boundary = 'basekit-upload-bench';
const head = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].replacing"\r\n\r\ntrue\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="big.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n',
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

function upload(url: string, headers: Record<string, string>, size: number): Promise<{ seconds: number; md5: string }> {
  const started = performance.now();
  const md5 = createHash('md5');
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + size + tail.length,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}: ${text}`));
        else resolve({ seconds: (performance.now() - started) / 1000, md5: md5.digest('hex') });
      });
    });
    req.on('error', reject);
    let sent = 0;
    const send = () => {
      if (sent === 0) req.write(head);
      while (sent < size) {
        sent += MiB;
        md5.update(piece);
        if (!req.write(piece)) return void req.once('drain', send);
      }
      req.end(tail);
    };
    send();
  });
}

process.on(
  'message',
  async ({ url, headers, size }: { url: string; headers: Record<string, string>; size: number }) => {
    process.send!(await upload(url, headers, size));
  },
);
console.log(`ready ${JSON.stringify({})}`);
