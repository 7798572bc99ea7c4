import type { ProjectConfig } from '../../api.js';
import { CopyButton } from '../../components/copy-button.js';
import { shellQuote } from '../../shell.js';
import { serverUrl } from './urls.js';

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The SDK's client for this project (docs/sdk.md). */
function sdk(config: ProjectConfig): string {
  const word = config.headerWord[0] === 'Service' ? '' : `\n  headerWord: ${quote(config.headerWord[0]!)},`;
  return `import { createClient } from '@basekit/sdk';

const client = createClient({
  baseUrl: ${quote(serverUrl(config))},
  authenticationId: ${quote(config.authenticationId)},
  clientKey: ${quote(config.clientKey)},
  objectStorageId: ${quote(config.objectStorageId)},
  storageId: ${quote(config.storageId)},
  gameId: ${quote(config.gameId)},${word}
});`;
}

/** The same project inside msw, for tests without a server (docs/msw.md). */
function msw(config: ProjectConfig): string {
  const keys = ['authenticationId', 'clientKey', 'masterKey', 'objectStorageId', 'storageId', 'gameId'] as const;
  const projectConfig: Record<string, unknown> = Object.fromEntries(keys.map((key) => [key, config[key]]));
  if (config.emailConfirmation) projectConfig['emailConfirmation'] = true;
  if (config.headerWord.join() !== 'Service') projectConfig['headerWord'] = config.headerWord;
  projectConfig['events'] = config.events;
  projectConfig['leaderboards'] = config.leaderboards;
  const configText = JSON.stringify(projectConfig, null, 2).replace(/\n/g, '\n  ');
  return `import { createHandlers } from '@basekit/msw';
import { setupServer } from 'msw/node'; // in a browser: setupWorker from 'msw/browser'

const backend = createHandlers({
  baseUrl: ${quote(serverUrl(config))},
  config: ${configText},
});
const server = setupServer(...backend);`;
}

/** Register, log in and call the admin API with curl. */
function curl(config: ProjectConfig): string {
  const url = serverUrl(config);
  const h = (name: string, value: string) => `-H ${shellQuote(`X-${config.headerWord[0]}-${name}: ${value}`)}`;
  return `# register a user
curl -X POST ${shellQuote(`${url}/auth/users`)} ${h('Authentication-Id', config.authenticationId)} \\
  -H 'Content-Type: application/json' -d '{"username": "ann", "password": "s3cret"}'

# log in: an access token and a refresh token
curl -X POST ${shellQuote(`${url}/auth/login`)} ${h('Authentication-Id', config.authenticationId)} \\
  ${h('Authentication-Key', config.clientKey)} -F username=ann -F password=s3cret

# the admin API: the project's config
curl ${shellQuote(`${url}/__admin/config`)} ${h('Authentication-Key', config.masterKey)}`;
}

const SNIPPETS = [
  { title: 'SDK', make: sdk },
  { title: 'msw', make: msw },
  { title: 'curl', make: curl },
];

/** Ready-made code for this project: the SDK's client, the same backend in msw, and curl calls. */
export function Snippets({ config }: { config: ProjectConfig }) {
  return (
    <section aria-labelledby="snippets-heading">
      <h2 id="snippets-heading">Snippets</h2>
      {SNIPPETS.map(({ title, make }) => {
        const text = make(config);
        return (
          <div class="snippet" key={title}>
            <div class="toolbar">
              <h3>{title}</h3>
              <CopyButton text={text} label={`Copy the ${title} snippet`} />
            </div>
            <pre class="json" role="region" tabIndex={0} aria-label={`${title} snippet`}>
              <code>{text}</code>
            </pre>
          </div>
        );
      })}
    </section>
  );
}
