import type { BlobStore, BlobWriter, ContentDigests, FileDigests, Hashing } from '../../shared/capabilities.js';
import { newId } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { multipartParser } from '../../shared/http/body.js';
import type { BodyChunks, FileSink, OpenFile } from '../../shared/http/multipart.js';
import { boundaryOf } from '../../shared/http/multipart-head.js';
import type { Caller } from './ownership.js';
import { MAX_PATH_INPUT } from './paths.js';
import { filesState } from './state.js';
import { readAll } from './stored-bytes.js';
import { type ReceivedFile, upload, uploadItems } from './upload.js';

/**
 * Content committed to a store that an admin reset or state import has replaced since the upload began (in memory
 * mode; the data folder's store stays): it moves to the current store, where the upload is applied.
 */
async function carryOver(from: BlobStore, to: BlobStore, key: string): Promise<void> {
  const stored = await from.get(key);
  const writer = await to.create(key);
  if (stored) await writer.write(await readAll(stored));
  await writer.end();
  await writer.commit();
  await from.delete(key);
}

/** The digests of a content on this thread, where the platform has no way to compute them elsewhere. */
function digestsHere(hashing: Hashing): ContentDigests {
  const md5 = hashing.md5();
  const crc = hashing.crc32();
  let ended: Promise<FileDigests> | undefined;
  return {
    update: async (chunk) => {
      md5.update(chunk);
      crc.update(chunk);
    },
    end: () => (ended ??= Promise.resolve({ md5: md5.digest(), crc: crc.digest() })),
  };
}

/**
 * A new blob whose writer hashes what it writes: the store's own where it hashes as it writes (Node with a data
 * folder), else its plain writer beside the platform's digests, each chunk hashed while the store writes the ones
 * before (it writes behind).
 */
async function hashedWriter(blobs: BlobStore, blobKey: string, hashing: Hashing): Promise<BlobWriter<FileDigests>> {
  if (blobs.createHashed) return blobs.createHashed(blobKey);
  const writer = await blobs.create(blobKey);
  const digests = hashing.digests?.() ?? digestsHere(hashing);
  return {
    async write(chunk) {
      const written = writer.write(chunk);
      await digests.update(chunk);
      await written;
    },
    end: async () => (await Promise.all([digests.end(), writer.end()]))[0],
    commit: () => writer.commit(),
    // Ending digests again is harmless, and lets go of those of a file cut short.
    abort: () => Promise.all([writer.abort(), digests.end().catch(() => undefined)]).then(() => undefined),
  };
}

/** A file part's sink: its chunks go to the writer; what stands for the file is its blob, size and digests. */
function blobSink(blobs: BlobStore, blobKey: string, writer: BlobWriter<FileDigests>): FileSink<ReceivedFile> {
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length; // before the write, which may take the chunk's memory
      return writer.write(chunk);
    },
    async end() {
      const { md5, crc } = await writer.end();
      return {
        blobKey,
        size,
        md5,
        crc,
        async commit(current) {
          await writer.commit();
          if (current !== blobs) await carryOver(blobs, current, blobKey);
        },
      };
    },
  };
}

/** An upload request as `receiveUpload` takes it. */
interface UploadRequest {
  body: BodyChunks | null;
  contentType: string | undefined;
  /** The owner of new files and folders: the user, or null for the master token. */
  caller: Caller;
  /** The most bytes the body may have (its route's limit). */
  maxBytes: number;
}

/**
 * Takes the body of an upload request: each file goes to the blob store as it arrives (the data folder, or memory),
 * hashed on the way, and is committed only once the whole upload is accepted (see `upload`). An upload refused at
 * any point leaves nothing behind. Returns the saved path of each file.
 */
export async function receiveUpload(
  project: Project,
  moment: Moment,
  { body, contentType, caller, maxBytes }: UploadRequest,
): Promise<string[]> {
  const { config, capabilities } = project;
  const { blobs } = project.state(filesState);
  // The portable hashers load with the first upload where the platform has none of its own (browsers).
  const hashing = capabilities.hashing ?? (await import('./portable-hashing.js')).portableHashing;
  const writers: BlobWriter<FileDigests>[] = [];
  const openFile: OpenFile<ReceivedFile> = (part) => {
    // Other fields are short text; a file sent as one of them is read as text and held to the field's limit.
    if (part.filename === undefined || !part.name.endsWith('.fileToUpload')) return undefined;
    const blobKey = newId(moment, 24);
    return hashedWriter(blobs, blobKey, hashing).then((writer) => {
      writers.push(writer);
      return blobSink(blobs, blobKey, writer);
    });
  };
  try {
    const limits = { bytes: maxBytes, parts: config.maxUploadParts, fieldBytes: MAX_PATH_INPUT };
    const { readMultipart } = await multipartParser();
    const parts = await readMultipart(body, boundaryOf(contentType), limits, openFile, capabilities.byteSearch);
    return await upload(project, moment, uploadItems(config.bucket, parts), caller);
  } catch (error) {
    // A committed writer ignores this: its content is either listed or deleted by `upload`.
    await Promise.all(writers.map((writer) => writer.abort().catch(() => undefined)));
    throw error;
  }
}
