import { useState } from 'preact/hooks';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { uploadFiles, type Progress } from './upload.js';

/**
 * Uploads into `folder`: files dropped on the zone, or chosen with its file input (for keyboards and screen
 * readers), with a progress bar while the bytes go out.
 */
export function UploadZone({ folder, onUploaded }: { folder: string[]; onUploaded: () => void }) {
  const [over, setOver] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const action = useAction();
  const upload = (files: File[]) => {
    if (files.length === 0) return;
    setProgress({ loaded: 0, total: files.reduce((sum, f) => sum + f.size, 0) });
    void action.run(async () => {
      try {
        const saved = await uploadFiles(folder, files, replacing, setProgress);
        onUploaded();
        return `Uploaded ${saved.map(decodeURIComponent).join(', ')}.`;
      } finally {
        setProgress(undefined);
      }
    });
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    upload([...(event.dataTransfer?.files ?? [])]);
  };
  const dragOver = (event: DragEvent) => {
    event.preventDefault();
    setOver(true);
  };
  return (
    <section
      class={over ? 'drop-zone over' : 'drop-zone'}
      aria-label="Upload"
      onDragOver={dragOver}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <p>Drop files here to upload them into this folder, or</p>
      <div class="toolbar">
        <label class="file-button">
          Choose files to upload
          <input
            type="file"
            multiple
            onChange={(e) => {
              upload([...(e.currentTarget.files ?? [])]);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <label>
          <input type="checkbox" checked={replacing} onChange={(e) => setReplacing(e.currentTarget.checked)} /> Replace
          files of the same name
        </label>
      </div>
      {progress && (
        <progress aria-label="Upload progress" max={progress.total || 1} value={progress.loaded}>
          {Math.round((100 * progress.loaded) / (progress.total || 1))} %
        </progress>
      )}
      <Status error={action.error}>{action.message || (progress && 'Uploading…')}</Status>
    </section>
  );
}
