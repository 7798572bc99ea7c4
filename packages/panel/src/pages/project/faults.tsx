import type { Fault, FaultSpec } from '@basekit/sdk/admin';
import { useState } from 'preact/hooks';
import { admin, type ProjectConfig } from '../../api.js';
import { DataTable } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';

type Effect = 'status' | 'reset' | 'delay';

const METHODS = ['any', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** What a fault does, in words: `503`, `connection dropped`, `+2000 ms`, or a status after a delay. */
function effectOf(fault: Fault): string {
  const done = fault.status !== undefined ? String(fault.status) : fault.network ? 'connection dropped' : '';
  const delay = fault.delayMs ? `+${fault.delayMs} ms` : '';
  return [delay, done].filter(Boolean).join(', then ');
}

/** The form's fields as a fault, only what was filled in. */
function specOf(form: FormState): FaultSpec {
  const number = (value: string) => (value === '' ? undefined : Number(value));
  return {
    path: form.path,
    ...(form.method !== 'any' && { method: form.method }),
    ...(form.effect === 'status' && { status: number(form.status) }),
    ...(form.effect === 'reset' && { network: 'reset' as const }),
    ...(number(form.delayMs) !== undefined && { delayMs: number(form.delayMs) }),
    ...(number(form.times) !== undefined && { times: number(form.times) }),
    ...(number(form.probability) !== undefined && { probability: number(form.probability) }),
  };
}

interface FormState {
  method: string;
  path: string;
  effect: Effect;
  status: string;
  delayMs: string;
  times: string;
  probability: string;
}

const EMPTY: FormState = {
  method: 'any',
  path: '',
  effect: 'status',
  status: '503',
  delayMs: '',
  times: '',
  probability: '',
};

/**
 * Faults of the project (`/__admin/faults`): make requests of a method and path fail with a status, lose their
 * connection or wait, for some requests or a share of them. Read again when the config is (a reset removes them).
 */
export function Faults({ config }: { config: ProjectConfig }) {
  const faults = useLoad(() => admin().faults.list(), [config]);
  const [form, setForm] = useState<FormState>(EMPTY);
  const action = useAction();
  const set = (key: keyof FormState) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [key]: e.currentTarget.value });

  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const fault = await admin().faults.add(specOf(form));
      faults.reload();
      return `Fault ${fault.id} set on ${fault.method ?? 'every method'} ${fault.path}.`;
    });
  };
  const remove = (removing: () => Promise<void>, done: string) =>
    action.run(async () => {
      await removing();
      faults.reload();
      return done;
    });

  return (
    <section aria-labelledby="faults-heading">
      <h2 id="faults-heading">Faults</h2>
      <p>
        Requests of a method and path (a pattern as the contract writes paths, <code>/auth/users/{'{userId}'}</code>)
        answer an error status, lose their connection or wait, until removed. A reset removes them all.
      </p>
      <Status error={faults.error} />
      <DataTable
        caption="Set on this project"
        rows={faults.data ?? []}
        rowKey={(fault) => fault.id}
        empty="No fault is set: every request is answered as always."
        columns={[
          { title: 'Id', cell: (fault) => fault.id },
          { title: 'Request', cell: (fault) => <code>{`${fault.method ?? '*'} ${fault.path}`}</code> },
          { title: 'Does', cell: effectOf },
          {
            title: 'Share',
            cell: (fault) => (fault.probability === undefined ? 'all' : `${fault.probability * 100} %`),
          },
          { title: 'Left', cell: (fault) => fault.remaining ?? '∞' },
          { title: 'Applied', cell: (fault) => `${fault.applied} of ${fault.matched}` },
          {
            title: 'Actions',
            cell: (fault) => (
              <button
                type="button"
                aria-label={`Remove fault ${fault.id}`}
                onClick={() => remove(() => admin().faults.remove(fault.id), `Fault ${fault.id} removed.`)}
              >
                Remove
              </button>
            ),
          },
        ]}
      />
      <form class="toolbar" onSubmit={add} aria-label="Set a fault">
        <Field label="Method">
          {(id) => (
            <select id={id} value={form.method} onChange={set('method')}>
              {METHODS.map((method) => (
                <option key={method}>{method}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Path">
          {(id) => <input id={id} required placeholder="/auth/login" value={form.path} onInput={set('path')} />}
        </Field>
        <Field label="Effect">
          {(id) => (
            <select id={id} value={form.effect} onChange={set('effect')}>
              <option value="status">answer a status</option>
              <option value="reset">drop the connection</option>
              <option value="delay">delay only</option>
            </select>
          )}
        </Field>
        {form.effect === 'status' && (
          <Field label="Status">
            {(id) => (
              <input id={id} type="number" min={400} max={599} required value={form.status} onInput={set('status')} />
            )}
          </Field>
        )}
        <Field label="Delay (ms)">
          {(id) => (
            <input
              id={id}
              type="number"
              min={form.effect === 'delay' ? 1 : 0}
              required={form.effect === 'delay'}
              value={form.delayMs}
              onInput={set('delayMs')}
            />
          )}
        </Field>
        <Field label="Times">
          {(id) => <input id={id} type="number" min={1} placeholder="∞" value={form.times} onInput={set('times')} />}
        </Field>
        <Field label="Probability">
          {(id) => (
            <input
              id={id}
              type="number"
              min={0.01}
              max={1}
              step={0.01}
              placeholder="1"
              value={form.probability}
              onInput={set('probability')}
            />
          )}
        </Field>
        <button type="submit" disabled={action.busy}>
          Set the fault
        </button>
        <button
          type="button"
          disabled={action.busy || !faults.data?.length}
          onClick={() => remove(() => admin().faults.clear(), 'Every fault was removed.')}
        >
          Remove all
        </button>
      </form>
      <Status error={action.error}>{action.message}</Status>
    </section>
  );
}
