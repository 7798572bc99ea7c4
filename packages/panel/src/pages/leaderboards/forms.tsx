import { useState } from 'preact/hooks';
import { updateConfig } from '../../api.js';
import { ActionForm } from '../../components/action-form.js';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { fieldLabel, upsert, type BoardField, type EventDefinition, type LeaderboardDefinition } from './model.js';

// A leaderboard ranks by one to three fields (the contract's `LeaderboardScores`: three scores), in this priority.
const PRIORITIES = ['Field 1 (first priority)', 'Field 2', 'Field 3'];

/** Defines an event (name and fields) in the running config, or replaces the event of that name. */
export function EventForm({ events }: { events: EventDefinition[] }) {
  const [name, setName] = useState('');
  const [fields, setFields] = useState('');
  const submit = async () => {
    const definition = {
      name: name.trim(),
      fields: fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    };
    await updateConfig({ events: upsert(events, definition, (e) => e.name) });
    setName('');
    setFields('');
    return `Event ${definition.name} saved.`;
  };
  return (
    <ActionForm aria-label="Define an event" submit="Save event" run={submit}>
      <div class="toolbar">
        <InputField label="Event name" required value={name} onValue={setName} />
        <InputField
          label="Event fields"
          hint="comma-separated, e.g. score, kills"
          required
          value={fields}
          onValue={setFields}
        />
      </div>
    </ActionForm>
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
  const choices = events.flatMap((e) => e.fields.map((field): BoardField => ({ event: e.name, field })));

  const submit = async () => {
    const next: LeaderboardDefinition = {
      id: id.trim(),
      fields: fields.filter(Boolean).map((f) => JSON.parse(f) as BoardField),
      aggregation,
      order,
    };
    await updateConfig({ leaderboards: upsert(boards, next, (b) => b.id) });
    onSaved?.(next.id);
    return `Leaderboard ${next.id} saved.`;
  };
  return (
    <ActionForm
      aria-label={definition ? 'Change the definition' : 'Define a leaderboard'}
      submit={definition ? 'Save definition' : 'Define leaderboard'}
      run={submit}
    >
      {!definition && <InputField label="Leaderboard id" required value={id} onValue={setId} />}
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
    </ActionForm>
  );
}
