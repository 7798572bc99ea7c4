// The reference server with a data folder (`argv[2]`) and `maxUploadBytes` of `argv[3]`, its `fsync` setting
// `argv[4]`, alone in its process. Prints the address and the headers of a master upload.
import { startServer } from '../../src/server.js';

const [dataDir, maxUploadBytes, fsync] = process.argv.slice(2) as [string, string, 'never' | 'always'];
const server = await startServer({ port: 0, dataDir, config: { maxUploadBytes: Number(maxUploadBytes), fsync } });
const { authenticationId, masterKey, storageId } = server.engine.project.config;
const login = await fetch(`${server.url}/auth/login`, {
  method: 'POST',
  headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
});
const { access_token: token } = (await login.json()) as { access_token: string };
const headers = { 'X-Service-Storage-Id': storageId, Authorization: `Bearer ${token}` };
// Asked for the file's MD5 (after an upload): what the server computed while the file came in.
process.on('message', async () => {
  const info = await fetch(`${server.url}/files/fileInfo`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: 'big.bin' }),
  });
  process.send!(((await info.json()) as { md5Hash: string }).md5Hash);
});
console.log(`ready ${JSON.stringify({ url: `${server.url}/files`, headers })}`);
