import type { ProjectConfig } from '../../api.js';
import { CopyButton } from '../../components/copy-button.js';
import { serverUrl } from './urls.js';

/** Every key, id and URL of the project, each with a copy button. */
export function Keys({ config }: { config: ProjectConfig }) {
  const url = serverUrl(config);
  const word = config.headerWord[0];
  const rows: [name: string, value: string, header?: string][] = [
    ['base_url (users, database, leaderboards)', url],
    ['storage_url', url],
    ['transcoder_url', url],
    ['Authentication id', config.authenticationId, `X-${word}-Authentication-Id`],
    ['Client key', config.clientKey, `X-${word}-Authentication-Key`],
    ['Master key', config.masterKey, `X-${word}-Authentication-Key`],
    ['Database id', config.objectStorageId, `X-${word}-Object-Storage-Id`],
    ['Storage id', config.storageId, `X-${word}-Storage-Id`],
    ['Bucket', config.bucket],
    ['Game id', config.gameId, `X-${word}-Game-Id`],
    ['Header words', config.headerWord.join(', ')],
    ['Leaderboard ids', config.leaderboards.map((board) => board.id).join(', ')],
    ['Admin API', `${url}/__admin/`],
  ];
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">Keys, ids and URLs</h2>
      <div class="table-scroll">
        <table class="keys" aria-labelledby="keys-heading">
          <tbody>
            {rows.map(([name, value, header]) => (
              <tr key={name}>
                <th scope="row">
                  {name}
                  {header && <small class="hint"> {header}</small>}
                </th>
                <td>
                  <code>{value || '(none)'}</code>
                </td>
                <td>{value && <CopyButton text={value} label={`Copy ${name}`} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
