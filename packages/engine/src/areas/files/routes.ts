import { adminKey } from '../../admin/guard.js';
import { bearer, master, projectHeader, serviceEnabled } from '../../shared/auth/middlewares.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import type { AppContext } from '../../shared/env.js';
import { ErrorCode, badRequest } from '../../shared/errors.js';
import { bodyChunks, bodyLimitOf, intParam, isPlainObject, readJsonObject } from '../../shared/http/body.js';
import { servicePath } from '../../shared/http/path.js';
import { createRoutes } from '../../shared/http/routes.js';
import { adminListing } from './admin.js';
import { deleteEntries, MAX_DELETE_FILES } from './delete.js';
import { downloadName } from './disposition.js';
import { download } from './download.js';
import { choiceField, flagList, intField, stringList } from './fields.js';
import { fileInfo, listFolder, MAX_PAGE_SIZE } from './listing.js';
import { tooLarge } from '../../shared/http/multipart-head.js';
import { checkName, parsePath } from './paths.js';
import { receiveUpload } from './receive.js';
import { MAX_RENAME_FILES, renameFiles } from './rename.js';
import { tooMany } from './selection.js';
import { filesState } from './state.js';
import { type TransferMode, transfer } from './transfer.js';
import { createDirectory } from './upload.js';

const storage = serviceEnabled('storage');
const storageId = projectHeader('x-service-storage-id', 'storageId', 404);
/** docs/errors.md lists 401, not 403, for a client token on the master operations of file storage. */
const masterOnly = master(401);

/** The owner recorded on what the caller creates: the user, or null for the master token. */
const ownerOf = (c: AppContext) => (c.get('principal').isMaster ? null : (c.get('principal').userId ?? null));
const pathOf = (c: AppContext, value: unknown, field: string) => parsePath(c.env.project.config.bucket, value, field);

/** The files tree keeps itself where the platform lets it (on disk), so its changes need no record there. */
const changesFiles = changes({ keptBy: filesState });

export const filesRoutes = createRoutes();

filesRoutes.post(
  '/files',
  changes({ keptBy: filesState, bodyLimit: 'maxUploadBytes' }),
  storage,
  storageId,
  bearer,
  async (c) => {
    const maxBytes = bodyLimitOf(c).bytes;
    // Refused before reading when the length is declared; otherwise while reading.
    if (Number(c.req.header('content-length')) > maxBytes) throw tooLarge(maxBytes);
    const upload = { body: bodyChunks(c), contentType: c.req.header('content-type'), caller: ownerOf(c), maxBytes };
    return c.json({ savedFilesUrls: await receiveUpload(c.env.project, c.env.moment, upload) });
  },
);

filesRoutes.post('/directories', changesFiles, storage, storageId, bearer, async (c) => {
  const body = await readJsonObject(c);
  const folder = pathOf(c, body['path'], 'path');
  const { path, created } = await createDirectory(c.env.project, c.env.moment, folder, ownerOf(c));
  return c.json({ path }, created ? 201 : 200);
});

filesRoutes.post('/files/directoryInfo', reads, storage, storageId, masterOnly, async (c) => {
  const body = await readJsonObject(c);
  const path = pathOf(c, body['url'], 'url');
  const pageNumber = intField(body, 'pageNumber', 0, Number.MAX_SAFE_INTEGER, 0);
  const pageSize = intField(body, 'pageSize', 1, MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const files = listFolder(
    c.env.project,
    path,
    pageNumber,
    pageSize,
    choiceField(body, 'sortingType', ['ASC', 'DESC']),
  );
  return c.json({ files });
});

filesRoutes.post('/files/fileInfo', reads, storage, storageId, masterOnly, async (c) => {
  const body = await readJsonObject(c);
  return c.json(fileInfo(c.env.project, pathOf(c, body['url'], 'url')));
});

async function deleteFiles(c: AppContext) {
  const body = await readJsonObject(c);
  const urls = stringList(body, 'urls');
  if (urls.length > MAX_DELETE_FILES) throw tooMany(MAX_DELETE_FILES, 'files');
  await deleteEntries(
    c.env.project,
    c.env.moment,
    ownerOf(c),
    urls.map((url) => pathOf(c, url, 'urls')),
    flagList(body, 'forced', urls.length, 'urls'),
  );
  return c.json({});
}

filesRoutes.post('/files/delete', changesFiles, storage, storageId, bearer, deleteFiles);
// The same with `DELETE /files` and the same JSON body, as one of the service's published clients sends it.
filesRoutes.delete('/files', changesFiles, storage, storageId, bearer, deleteFiles);

function transferRoute(mode: TransferMode) {
  // docs/errors.md lists 417 for a disabled service on copy and move.
  filesRoutes.post(`/files/${mode}`, changesFiles, serviceEnabled('storage', 417), storageId, masterOnly, async (c) => {
    const body = await readJsonObject(c);
    const sources = stringList(body, 'sourceUrls');
    const forces = flagList(body, 'forces', sources.length, 'sourceUrls');
    const destination = pathOf(c, body['destinationUrl'], 'destinationUrl');
    const newPaths = await transfer(
      c.env.project,
      c.env.moment,
      mode,
      sources.map((url) => pathOf(c, url, 'sourceUrls')),
      forces,
      destination,
    );
    return c.json({ newPaths });
  });
}
transferRoute('copy');
transferRoute('move');

filesRoutes.post('/files/rename', changesFiles, storage, storageId, bearer, async (c) => {
  const { items } = await readJsonObject(c);
  if (!Array.isArray(items) || items.length === 0 || !items.every(isPlainObject)) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"items" must be a non-empty array of {pathToRename, newFileName}');
  }
  if (items.length > MAX_RENAME_FILES) throw tooMany(MAX_RENAME_FILES, 'files');
  const renames = items.map((item) => {
    if (typeof item['newFileName'] !== 'string')
      throw badRequest(ErrorCode.INVALID_PATH, '"newFileName" must be a string');
    return {
      path: pathOf(c, item['pathToRename'], 'pathToRename'),
      newName: checkName(item['newFileName'], 'newFileName'),
    };
  });
  return c.json({ newPaths: await renameFiles(c.env.project, c.env.moment, ownerOf(c), renames) });
});

// Admin API (beyond the spec): any location in one call, content types and dates, a search by name.
filesRoutes.get('/__admin/files', reads, adminKey, (c) =>
  c.json(
    adminListing(c.env.project, pathOf(c, c.req.query('path') ?? '', 'path'), {
      name: c.req.query('name') || undefined,
      page: intParam(c, 'page', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
      pageSize: intParam(c, 'pageSize', { min: 1, max: 100, fallback: MAX_PAGE_SIZE }),
    }),
  ),
);

// Downloads: `/<bucket>/<path>`, public like a CDN address. Any other first segment is not ours: it goes on to
// the other areas' routes or the 404 handler.
filesRoutes.get('/*', reads, async (c, next) => {
  const { project } = c.env;
  const pathname = servicePath(new URL(c.req.url).pathname);
  if (pathname.split('/')[1] !== project.config.bucket) return next();
  await storage(c, async () => undefined); // throws 503 while the storage service is switched off
  const name = downloadName(c.req.query('name'), c.req.query('filename'));
  return download(project, pathOf(c, pathname, 'path'), c.req.raw.headers, name);
});
