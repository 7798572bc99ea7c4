import { useState } from 'preact/hooks';
import { CopyButton } from '../../components/copy-button.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { UserLink } from '../../components/user-link.js';
import { href, navigate } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { DeleteButton } from './folder-view.js';
import { downloadUrl, fileInfo, formatBytes, namesOf, rename, resizable, type FileEntry } from './storage.js';
import { TransferForm } from './transfer-form.js';

/** The box an image preview is resized into by the server (`r/<w>x<h>`): never enlarged. */
const PREVIEW_BOX: [number, number] = [480, 360];

/** One file: what the service knows of it (its file info, `POST /files/fileInfo`), a preview, and what can be done to it. */
export function FileView({ names, entry }: { names: string[]; entry: FileEntry }) {
  const name = names[names.length - 1]!;
  const parent = names.slice(0, -1);
  const address = new URL(downloadUrl(names), location.href).href;
  const info = useLoad(() => fileInfo(names), [names.join('/')]);
  const hashes = info.data;
  return (
    <section aria-label={`File ${name}`}>
      <h2>{name}</h2>
      <Preview names={names} name={name} type={entry.contentType ?? ''} />
      <dl class="facts">
        <dt>Download address</dt>
        <dd>
          <a href={address}>{address}</a> <CopyButton text={address} label="Copy download address" />
        </dd>
        <dt>Type</dt>
        <dd>{entry.contentType}</dd>
        <dt>Size</dt>
        <dd>
          {formatBytes(entry.fileSizeInBytes)} ({entry.fileSizeInBytes} bytes)
        </dd>
        <dt>Owner</dt>
        <dd>{entry.ownerId ? <UserLink userId={entry.ownerId} /> : 'master (no user)'}</dd>
        {hashes && (
          <>
            <dt>Created</dt>
            <dd>{new Date(hashes.creationDate).toISOString()}</dd>
          </>
        )}
        <dt>Modified</dt>
        <dd>{new Date(entry.lastModificationDate).toISOString()}</dd>
        {hashes && (
          <>
            <dt>MD5</dt>
            <dd>
              <code>{hashes.md5Hash}</code>
            </dd>
            <dt>CRC-32</dt>
            <dd>
              <code>{hashes.crcHash}</code>
            </dd>
          </>
        )}
      </dl>
      <Status error={info.error} />
      <h3>Download</h3>
      <Download names={names} name={name} />
      <h3>Rename</h3>
      <Rename names={names} name={name} />
      <h3>Copy or move</h3>
      <TransferForm
        sources={[names]}
        onDone={(paths, mode) => mode === 'move' && navigate(href('files', ...namesOf(paths[0]!)))}
      />
      <h3>Delete</h3>
      <DeleteButton paths={[names]} folders={false} onDeleted={() => navigate(href('files', ...parent))} />
    </section>
  );
}

/**
 * By the type the file is served with: images through the server's resizing (the download URL's `r/<w>x<h>`),
 * videos and sounds in the browser's player.
 */
function Preview({ names, name, type }: { names: string[]; name: string; type: string }) {
  if (type.startsWith('image/')) {
    const resized = resizable(type);
    return (
      <figure class="preview">
        <img src={downloadUrl(names, resized ? { resize: PREVIEW_BOX } : {})} alt={`Preview of ${name}`} />
        {resized && (
          <figcaption>
            Resized to fit {PREVIEW_BOX.join('×')} by the server; <a href={downloadUrl(names)}>full size</a>
          </figcaption>
        )}
      </figure>
    );
  }
  if (type.startsWith('video/'))
    return <video class="preview" controls preload="metadata" src={downloadUrl(names)} aria-label={`Video ${name}`} />;
  if (type.startsWith('audio/'))
    return <audio controls preload="metadata" src={downloadUrl(names)} aria-label={`Sound ${name}`} />;
  return null;
}

/** A download link under a name of the user's choice (`?name=`: the server's Content-Disposition carries it). */
function Download({ names, name }: { names: string[]; name: string }) {
  const [saveAs, setSaveAs] = useState(name);
  return (
    <div class="toolbar">
      <InputField label="Save as" value={saveAs} onValue={setSaveAs} />
      <a class="button" href={downloadUrl(names, { name: saveAs || name })} download={saveAs || name}>
        Download
      </a>
    </div>
  );
}

function Rename({ names, name }: { names: string[]; name: string }) {
  const [newName, setNewName] = useState(name);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const saved = await rename(names, newName);
      navigate(href('files', ...namesOf(saved)));
      return `Renamed to ${newName}.`;
    });
  };
  return (
    <form class="toolbar" onSubmit={submit}>
      <InputField label="New name" required value={newName} onValue={setNewName} />
      <button type="submit" disabled={action.busy || newName === name}>
        Rename
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}
