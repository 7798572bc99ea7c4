import { useState } from 'preact/hooks';
import { updateConfig } from '../../api.js';
import { Field } from '../../components/field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { fieldLabel, upsert, type BoardField, type EventDefinition, type LeaderboardDefinition } from './model.js';

// A leaderboard ranks by one to three fields (the contract's `LeaderboardScores`: three scores), in this priority.
const PRIORITIES = ['Field 1 (first priority)', 'Field 2', 'Field 3'];

/** Defines an event (name and fields) in the running config, or replaces the event of that name. */
export function EventForm({ events }: { events: EventDefinition[] }) {
  const [name, setName] = useState('');
  const [fields, setFields] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const definition = {
      name: name.trim(),
      fields: fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    };
    void action.run(async () => {
      await updateConfig({ events: upsert(events, definition, (e) => e.name) });
      setName('');
      setFields('');
      return `Event ${definition.name} saved.`;
    });
  };
  return (
    <form onSubmit={submit} aria-label="Define an event">
      <div class="toolbar">
        <Field label="Event name">
          {(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Event fields" hint="comma-separated, e.g. score, kills">
          {(id) => <input id={id} required value={fields} onInput={(e) => setFields(e.currentTarget.value)} />}
        </Field>
      </div>
      <button type="submit" disabled={action.busy}>
        Save event
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}

/**
 * Defines a leaderboard (fields by priority, aggregation, order) in the running config, or changes the one given
 * (the service starts it empty when its fields change, and ranks it again when its order changes).
 */
export function BoardForm({
  events,
  boards,
  definition,
  onSaved,
}: {
  events: EventDefinition[];
  boards: LeaderboardDefinition[];
  definition?: LeaderboardDefinition;
  onSaved?: (id: string) => void;
}) {
  const [id, setId] = useState(definition?.id ?? '');
  const [fields, setFields] = useState<string[]>(() =>
    PRIORITIES.map((_, i) => (definition?.fields[i] ? JSON.stringify(definition.fields[i]) : '')),
  );
  const [aggregation, setAggregation] = useState(definition?.aggregation ?? 'best');
  const [order, setOrder] = useState(definition?.order ?? 'desc');
  const action = useAction();
  const choices = events.flatMap((e) => e.fields.map((field): BoardField => ({ event: e.name, field })));

  const submit = (event: Event) => {
    event.preventDefault();
    const next: LeaderboardDefinition = {
      id: id.trim(),
      fields: fields.filter(Boolean).map((f) => JSON.parse(f) as BoardField),
      aggregation,
      order,
    };
    void action.run(async () => {
      await updateConfig({ leaderboards: upsert(boards, next, (b) => b.id) });
      onSaved?.(next.id);
      return `Leaderboard ${next.id} saved.`;
    });
  };
  return (
    <form onSubmit={submit} aria-label={definition ? 'Change the definition' : 'Define a leaderboard'}>
      {!definition && (
        <Field label="Leaderboard id">
          {(fieldId) => <input id={fieldId} required value={id} onInput={(e) => setId(e.currentTarget.value)} />}
        </Field>
      )}
      <div class="toolbar">
        {PRIORITIES.map((label, i) => (
          <Field label={label} key={label}>
            {(fieldId) => (
              <select
                id={fieldId}
                required={i === 0}
                value={fields[i]}
                onChange={(e) => setFields(fields.map((f, j) => (i === j ? e.currentTarget.value : f)))}
              >
                <option value="">{i === 0 ? 'choose an event field' : 'none'}</option>
                {choices.map((choice) => (
                  <option key={fieldLabel(choice)} value={JSON.stringify(choice)}>
                    {fieldLabel(choice)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
      <div class="toolbar">
        <Field label="Aggregation">
          {(fieldId) => (
            <select
              id={fieldId}
              value={aggregation}
              onChange={(e) => setAggregation(e.currentTarget.value as typeof aggregation)}
            >
              <option value="best">best: keep the better scores</option>
              <option value="sum">sum: add every event</option>
              <option value="last">last: the latest event</option>
            </select>
          )}
        </Field>
        <Field label="Order">
          {(fieldId) => (
            <select id={fieldId} value={order} onChange={(e) => setOrder(e.currentTarget.value as typeof order)}>
              <option value="desc">desc: higher is better</option>
              <option value="asc">asc: lower is better</option>
            </select>
          )}
        </Field>
      </div>
      <button type="submit" disabled={action.busy}>
        {definition ? 'Save definition' : 'Define leaderboard'}
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}
