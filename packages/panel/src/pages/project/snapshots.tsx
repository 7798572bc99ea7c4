import { useState } from 'preact/hooks';
import { admin, reloadConfig, type ProjectConfig } from '../../api.js';
import { DataTable } from '../../components/data-table.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';

/**
 * Named snapshots of the project (`/__admin/snapshots`): save it whole under a name, bring it back exactly in
 * milliseconds, delete. They live in the server's memory for its run. Read again when the config is (another project).
 */
export function Snapshots({ config }: { config: ProjectConfig }) {
  const snapshots = useLoad(() => admin().snapshots.list(), [config]);
  const [name, setName] = useState('');
  const action = useAction();

  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await admin().snapshots.save(name);
      snapshots.reload();
      return `Snapshot "${name}" saved.`;
    });
  };
  const restore = (of: string) =>
    action.run(async () => {
      await admin().snapshots.restore(of);
      // The config may be another now, and every page reads it.
      await reloadConfig();
      snapshots.reload();
      return `The project is back as it was at snapshot "${of}".`;
    });
  const remove = (of: string) =>
    action.run(async () => {
      await admin().snapshots.delete(of);
      snapshots.reload();
      return `Snapshot "${of}" deleted.`;
    });

  return (
    <section aria-labelledby="snapshots-heading">
      <h2 id="snapshots-heading">Snapshots</h2>
      <Status error={snapshots.error} />
      <DataTable
        caption="Named snapshots"
        rows={snapshots.data ?? []}
        rowKey={(snapshot) => snapshot.name}
        empty="No snapshot saved."
        columns={[
          { title: 'Name', cell: (snapshot) => snapshot.name },
          { title: 'Saved', cell: (snapshot) => <time dateTime={snapshot.createdAt}>{snapshot.createdAt}</time> },
          { title: 'Restored', cell: (snapshot) => `${snapshot.restores} times` },
          {
            title: 'Actions',
            cell: (snapshot) => (
              <div class="toolbar">
                <button type="button" onClick={() => restore(snapshot.name)}>
                  Restore <span class="visually-hidden">{snapshot.name}</span>
                </button>
                <button type="button" class="danger" onClick={() => remove(snapshot.name)}>
                  Delete <span class="visually-hidden">{snapshot.name}</span>
                </button>
              </div>
            ),
          },
        ]}
      />
      <form class="toolbar" onSubmit={save}>
        <InputField
          label="Snapshot name"
          hint="letters, digits, . _ -; an existing name is replaced"
          required
          pattern="[A-Za-z0-9][\w.\-]{0,99}"
          value={name}
          onValue={setName}
        />
        <button type="submit" disabled={action.busy}>
          Save a snapshot
        </button>
      </form>
      <Status error={action.error}>{action.message}</Status>
    </section>
  );
}
