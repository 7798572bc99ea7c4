import { useEffect, useState } from 'preact/hooks';
import { updateConfig, type ProjectConfig } from '../../api.js';
import { ActionForm } from '../../components/action-form.js';
import { InputField } from '../../components/input-field.js';

type Services = ProjectConfig['services'];
const SERVICES: (keyof Services)[] = ['users', 'database', 'storage', 'transcoder', 'leaderboards'];

/** Services on or off, e-mail confirmation and token lifetimes, changed at run time through `PATCH /__admin/config`. */
export function Settings({ config }: { config: ProjectConfig }) {
  const [services, setServices] = useState<Services>(config.services);
  const [emailConfirmation, setEmailConfirmation] = useState(config.emailConfirmation);
  const [accessTtl, setAccessTtl] = useState(String(config.accessTokenTtlSeconds));
  const [refreshTtl, setRefreshTtl] = useState(String(config.refreshTokenTtlSeconds));
  // The server's values whenever they change (a save, a reset, an import).
  useEffect(() => {
    setServices(config.services);
    setEmailConfirmation(config.emailConfirmation);
    setAccessTtl(String(config.accessTokenTtlSeconds));
    setRefreshTtl(String(config.refreshTokenTtlSeconds));
  }, [config]);

  const save = async () => {
    await updateConfig({
      services,
      emailConfirmation,
      accessTokenTtlSeconds: Number(accessTtl),
      refreshTokenTtlSeconds: Number(refreshTtl),
    });
    return 'Settings saved.';
  };

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <ActionForm class="settings" submit="Save settings" run={save}>
        <fieldset>
          <legend>Services</legend>
          {SERVICES.map((name) => (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={services[name]}
                onChange={(e) => setServices({ ...services, [name]: e.currentTarget.checked })}
              />{' '}
              {name}
            </label>
          ))}
        </fieldset>
        <label class="check">
          <input
            type="checkbox"
            checked={emailConfirmation}
            onChange={(e) => setEmailConfirmation(e.currentTarget.checked)}
          />{' '}
          E-mail confirmation (new users stay inactive until they open the link of their e-mail)
        </label>
        <SecondsField label="Access token lifetime (seconds)" value={accessTtl} onValue={setAccessTtl} />
        <SecondsField label="Refresh token lifetime (seconds)" value={refreshTtl} onValue={setRefreshTtl} />
      </ActionForm>
    </section>
  );
}

/** A whole number of seconds, at least one. */
function SecondsField({ label, value, onValue }: { label: string; value: string; onValue: (value: string) => void }) {
  return <InputField label={label} type="number" min={1} step={1} required value={value} onValue={onValue} />;
}
