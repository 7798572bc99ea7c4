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
console.log(
  `ready ${JSON.stringify({ url: `${server.url}/files`, headers: { 'X-Service-Storage-Id': storageId, Authorization: `Bearer ${token}` } })}`,
);
