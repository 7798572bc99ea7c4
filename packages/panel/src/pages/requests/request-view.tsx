import { project } from '../../api.js';
import { press, usePageCommands } from '../../commands.js';
import { CopyButton } from '../../components/copy-button.js';
import { DataTable } from '../../components/data-table.js';
import { JsonView } from '../../components/json-view.js';
import { Status } from '../../components/status.js';
import { href, navigate } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { formatBytes } from '../files/storage.js';
import { curlOf } from './curl.js';
import { callerName, getRequest, replayRequest, type BodyView } from './model.js';

const OMITTED: Record<string, string> = {
  binary: 'not text',
  large: 'larger than the inspector shows (inspectorBodyBytes)',
  unread: 'streamed, never held in memory',
};

/** A side's headers, under that side's heading (the section's name: "Request headers" to a screen reader). */
function Headers({ headers }: { headers: Record<string, string> }) {
  return (
    <DataTable
      caption="Headers"
      rows={Object.entries(headers)}
      rowKey={([name]) => name}
      empty="No headers."
      columns={[
        { title: 'Name', cell: ([name]) => name },
        { title: 'Value', cell: ([, value]) => <code>{value}</code> },
      ]}
    />
  );
}

/** A body as the server kept it: JSON pretty, a form's fields, text, or what it was and its size. */
function Body({ body, label }: { body: BodyView; label: string }) {
  switch (body.kind) {
    case 'none':
      return <p>No body.</p>;
    case 'json':
      return <JsonView value={body.json} label={`${label} (JSON, ${formatBytes(body.size)})`} />;
    case 'text':
      return (
        <pre class="json" role="region" tabIndex={0} aria-label={`${label} (text, ${formatBytes(body.size)})`}>
          {body.text}
        </pre>
      );
    case 'form':
      return (
        <DataTable
          caption={`${label} (form)`}
          rows={Object.entries(body.fields)}
          rowKey={([name]) => name}
          columns={[
            { title: 'Field', cell: ([name]) => name },
            {
              title: 'Value',
              cell: ([, value]) =>
                typeof value === 'string' ? (
                  <code>{value}</code>
                ) : (
                  `file ${value.file} (${value.type || 'no type'}, ${formatBytes(value.size)})`
                ),
            },
          ]}
        />
      );
    case 'omitted':
      return (
        <p>
          {body.contentType ?? 'A body'}, {body.size === undefined ? 'size unknown' : formatBytes(body.size)}: not shown
          ({OMITTED[body.reason]}).
        </p>
      );
  }
}

/** One side of the exchange, the request or the response: its headers and its body. */
function Message({
  name,
  message,
}: {
  name: 'Request' | 'Response';
  message: { headers: Record<string, string>; body: BodyView };
}) {
  const heading = `${name.toLowerCase()}-heading`;
  return (
    <section aria-labelledby={heading}>
      <h3 id={heading}>{name}</h3>
      <Headers headers={message.headers} />
      <h4>Body</h4>
      <Body body={message.body} label={`${name} body`} />
    </section>
  );
}

/**
 * One request in full: what, who, when, and its headers (secrets masked) and bodies on both sides; copy it as curl,
 * or send it again (the server has its secrets) and open the new request.
 */
export function RequestView({ id }: { id: string }) {
  const exchange = useLoad(() => getRequest(id), [id]);
  const shown = exchange.data;
  const replay = useAction();
  usePageCommands([{ title: 'Send the request again', run: () => press('Send again') }]);
  const sendAgain = () =>
    replay.run(async () => {
      const again = await replayRequest(id);
      navigate(href('requests', again.id));
      return `Sent again: answered ${again.status}.`;
    });
  return (
    <>
      <p>
        <a href={href('requests')}>← All requests</a>
      </p>
      <Status error={exchange.error}>{exchange.loading && !shown ? 'Loading the request…' : ''}</Status>
      {shown && (
        <>
          <h2>
            {shown.method} <code>{shown.path}</code> → {shown.status}
          </h2>
          <div class="toolbar">
            <CopyButton
              text={curlOf(shown, location.origin, project().headerWord[0]!)}
              label="Copy as curl"
              caption="Copy as curl"
            />
            <button type="button" disabled={replay.busy} onClick={sendAgain}>
              Send again
            </button>
          </div>
          <Status error={replay.error}>{replay.message}</Status>
          <dl class="requests-facts">
            <dt>Time</dt>
            <dd>
              <time dateTime={shown.time}>{new Date(shown.time).toLocaleString()}</time>
            </dd>
            <dt>Duration</dt>
            <dd>{shown.durationMs} ms</dd>
            <dt>Caller</dt>
            <dd>
              {shown.caller.kind === 'user' ? (
                <a href={href('users', shown.caller.userId)} title={`user id ${shown.caller.userId}`}>
                  {callerName(shown)}
                </a>
              ) : (
                callerName(shown)
              )}
            </dd>
            <dt>Area</dt>
            <dd>{shown.area}</dd>
            <dt>Project</dt>
            <dd>{shown.project}</dd>
            <dt>Id</dt>
            <dd>
              <code>{shown.id}</code> <CopyButton text={location.href} label="Copy the link to this request" />
            </dd>
          </dl>
          <div class="columns">
            <Message name="Request" message={shown.request} />
            <Message name="Response" message={shown.response} />
          </div>
        </>
      )}
    </>
  );
}
