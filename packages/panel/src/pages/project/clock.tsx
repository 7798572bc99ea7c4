import { useEffect, useState } from 'preact/hooks';
import type { ClockReading } from '@basekit/sdk/admin';
import { admin, type ProjectConfig } from '../../api.js';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';

const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };
type Unit = keyof typeof UNITS;

/**
 * The server's clock, ticking with the page's; moving it forward makes tokens expire without waiting. Read again when
 * the config is (a reset or an import moves the clock back).
 */
export function Clock({ config }: { config: ProjectConfig }) {
  const clock = useLoad(() => admin().clock.read(), [config]);
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<Unit>('hours');
  const moving = useAction();

  const move = async (event: Event) => {
    event.preventDefault();
    void moving.run(async () => {
      const now = await admin().clock.advance(Number(amount) * UNITS[unit]);
      clock.reload();
      return `Clock moved forward by ${amount} ${unit}: it is now ${now.toISOString()}.`;
    });
  };

  return (
    <section aria-labelledby="clock-heading">
      <h2 id="clock-heading">Clock</h2>
      {clock.data && <Ticking reading={clock.data} />}
      <Status error={clock.error} />
      <form class="toolbar" onSubmit={move}>
        <InputField
          label="Move forward by"
          type="number"
          min={0}
          step="any"
          required
          value={amount}
          onValue={setAmount}
        />
        <Field label="Unit">
          {(id) => (
            <select id={id} value={unit} onChange={(e) => setUnit(e.currentTarget.value as Unit)}>
              {Object.keys(UNITS).map((u) => (
                <option key={u}>{u}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={moving.busy}>
          Move the clock
        </button>
      </form>
      <Status error={moving.error}>{moving.message}</Status>
    </section>
  );
}

/** The server's time, advanced locally each second from the last reading (not announced: it changes each second). */
function Ticking({ reading }: { reading: ClockReading }) {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const start = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Date.now() - start), 1000);
    return () => clearInterval(timer);
  }, [reading]);
  const now = new Date(Date.parse(reading.now) + elapsed);
  return (
    <p>
      Server time <time dateTime={now.toISOString()}>{now.toISOString().replace(/\.\d+Z$/, 'Z')}</time>
      {reading.offsetSeconds > 0 ? `, ${formatOffset(reading.offsetSeconds)} ahead of real time` : ', real time'}
    </p>
  );
}

function formatOffset(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = new Date((seconds % 86400) * 1000).toISOString().slice(11, 19);
  return days ? `${days} d ${rest}` : rest;
}
