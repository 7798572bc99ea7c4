import { CopyButton } from '../../components/copy-button.js';
import { DataTable } from '../../components/data-table.js';
import { JsonView } from '../../components/json-view.js';
import { Status } from '../../components/status.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { formatBytes } from '../files/storage.js';
import { callerName, getRequest, type BodyView } from './model.js';

const OMITTED: Record<string, string> = {
  binary: 'not text',
  large: 'larger than the inspector shows (inspectorBodyBytes)',
  unread: 'streamed, never held in memory',
};

function Headers({ headers, caption }: { headers: Record<string, string>; caption: string }) {
  return (
    <DataTable
      caption={caption}
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

/** One request in full: what, who, when, and its headers (secrets masked) and bodies on both sides. */
export function RequestView({ id }: { id: string }) {
  const exchange = useLoad(() => getRequest(id), [id]);
  const shown = exchange.data;
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
                <a href={href('users', shown.caller.userId)}>user {callerName(shown)}</a>
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
            <section aria-labelledby="request-heading">
              <h3 id="request-heading">Request</h3>
              <Headers headers={shown.request.headers} caption="Request headers" />
              <h4>Body</h4>
              <Body body={shown.request.body} label="Request body" />
            </section>
            <section aria-labelledby="response-heading">
              <h3 id="response-heading">Response</h3>
              <Headers headers={shown.response.headers} caption="Response headers" />
              <h4>Body</h4>
              <Body body={shown.response.body} label="Response body" />
            </section>
          </div>
        </>
      )}
    </>
  );
}
