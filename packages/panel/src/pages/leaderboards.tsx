// The leaderboards page: the events and leaderboards of the running config (defined here as the service's own
// panel does), and per leaderboard its top list, any player's neighbourhood and a reset.
import { updateConfig, useConfig, type ProjectConfig } from '../api.js';
import { focusField, usePageCommands } from '../commands.js';
import { DataTable } from '../components/data-table.js';
import { Status } from '../components/status.js';
import { href, navigate } from '../router.js';
import { useAction } from '../use-action.js';
import type { PageProps } from './page-props.js';
import { BoardView } from './leaderboards/board.js';
import { BoardForm, EventForm } from './leaderboards/forms.js';
import { fieldLabel } from './leaderboards/model.js';

export default function LeaderboardsPage({ params: [id] }: PageProps) {
  const config = useConfig()!;
  if (id !== undefined) {
    const definition = config.leaderboards.find((b) => b.id === id);
    return (
      <>
        <nav aria-label="Breadcrumb" class="toolbar">
          <a href={href('leaderboards')}>All leaderboards</a>
        </nav>
        {definition ? (
          <BoardView key={id} config={config} definition={definition} />
        ) : (
          <Status error={new Error(`There is no leaderboard "${id}".`)} />
        )}
      </>
    );
  }
  return <Overview config={config} />;
}

/** Every leaderboard and event of the running config, and the forms that define them. */
function Overview({ config }: { config: ProjectConfig }) {
  const removal = useAction();
  usePageCommands([
    { title: 'Define a leaderboard', run: () => focusField('Leaderboard id') },
    { title: 'Define an event', run: () => focusField('Event name') },
  ]);
  const removeEvent = (name: string) =>
    removal.run(async () => {
      await updateConfig({ events: config.events.filter((e) => e.name !== name) });
      return `Event ${name} removed.`;
    });
  return (
    <>
      <DataTable
        caption="Leaderboards"
        columns={[
          { title: 'Id', cell: (b) => <a href={href('leaderboards', b.id)}>{b.id}</a> },
          { title: 'Fields by priority', cell: (b) => b.fields.map(fieldLabel).join(', ') },
          { title: 'Aggregation', cell: (b) => b.aggregation },
          { title: 'Order', cell: (b) => b.order },
        ]}
        rows={config.leaderboards}
        rowKey={(b) => b.id}
        empty="No leaderboards yet."
      />
      <h2>Define a leaderboard</h2>
      {config.events.length === 0 ? (
        <p>Define an event first: a leaderboard ranks fields of events.</p>
      ) : (
        <BoardForm
          events={config.events}
          boards={config.leaderboards}
          onSaved={(saved) => navigate(href('leaderboards', saved))}
        />
      )}
      <DataTable
        caption="Events"
        columns={[
          { title: 'Event', cell: (e) => e.name },
          { title: 'Fields', cell: (e) => e.fields.join(', ') },
          {
            title: 'Actions',
            cell: (e) => (
              <button
                type="button"
                class="danger"
                aria-label={`Remove event ${e.name}`}
                onClick={() => removeEvent(e.name)}
              >
                Remove
              </button>
            ),
          },
        ]}
        rows={config.events}
        rowKey={(e) => e.name}
        empty="No events yet."
      />
      <Status error={removal.error}>{removal.message}</Status>
      <h2>Define an event</h2>
      <EventForm events={config.events} />
    </>
  );
}
