// The peer of an upload: a plain Node server that pipes the request body, as it comes (the whole multipart body), to
// a file with stream.pipeline, flushes it to the disk when `argv[3]` is "fsync", and answers 200. No parsing, no
// hashing: the ceiling of receiving a body onto this disk in Node. Writes `argv[2]`/upload.bin, replaced each time.
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const [dir, sync] = process.argv.slice(2) as [string, string | undefined];
const file = join(dir, 'upload.bin');
const server = createServer(async (req, res) => {
  await pipeline(req, createWriteStream(file));
  if (sync === 'fsync') {
    const handle = await open(file, 'r+');
    await handle.sync();
    await handle.close();
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"savedFilesUrls":["upload.bin"]}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(
  `ready ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/files`, headers: {} })}`,
);
