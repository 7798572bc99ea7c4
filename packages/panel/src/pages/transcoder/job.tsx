import { useState } from 'preact/hooks';
import { DataTable } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { JsonView } from '../../components/json-view.js';
import { Status } from '../../components/status.js';
import { UserLink } from '../../components/user-link.js';
import { httpAddress } from '../../links.js';
import { count } from '../../plural.js';
import { href, setQuery, useRoute } from '../../router.js';
import type { DeliveryCall, JobRecord } from './calls.js';
import { seconds } from './jobs-table.js';
import { HlsPlayer } from './player.js';

/** One job: its state and timeline, ffmpeg's commands and log, every delivery and webhook call, and its results. */
export function JobView({ job }: { job: JobRecord }) {
  return (
    <article aria-labelledby="job-title">
      <p>
        <a href={href('transcoder')}>All jobs and settings</a>
      </p>
      <h2 id="job-title">
        Job {job.requestId}: <span class={`state ${job.state}`}>{job.state}</span>
      </h2>
      <dl class="facts">
        <dt>Source</dt>
        <dd>{job.url}</dd>
        <dt>Video id</dt>
        <dd>
          <code>{job.videoId}</code>
        </dd>
        <dt>Queue id</dt>
        <dd>
          <code>{job.queueId}</code>
        </dd>
        <dt>Submitted by</dt>
        <dd>{job.userId ? <UserLink userId={job.userId} /> : 'master'}</dd>
        <dt>Upload deliveries</dt>
        <dd>{outcome(job.deliveries)}</dd>
        <dt>Webhook calls</dt>
        <dd>{outcome(webhookOutcome(job))}</dd>
        {job.reason && (
          <>
            <dt>Reason (told to the caller)</dt>
            <dd>{job.reason}</dd>
          </>
        )}
        {job.detail && (
          <>
            <dt>What happened</dt>
            <dd>{job.detail}</dd>
          </>
        )}
        {job.lastDeliveryError && failedForGood(job) && (
          <>
            <dt>Last delivery error</dt>
            <dd>{job.lastDeliveryError}</dd>
          </>
        )}
      </dl>
      <Results job={job} />
      <Timeline job={job} />
      <Calls calls={job.calls} />
      <Log job={job} />
      <h3>Settings used</h3>
      <JsonView value={job.settings} label="Settings the job used" />
    </article>
  );
}

interface Outcome {
  delivered: number;
  failed: number;
  retries: number;
}

/** The webhook calls of a job as its upload deliveries are counted: each call once, by how it ended. */
const webhookOutcome = ({ notifications }: JobRecord): Outcome => ({
  delivered: notifications.filter((n) => n.delivered).length,
  failed: notifications.filter((n) => !n.delivered).length,
  retries: notifications.reduce((sum, n) => sum + Math.max(0, n.attempts - 1), 0),
});

/** "2 delivered after 1 retry, none failed": calls by how they ended, the tries before a success aside. */
function outcome({ delivered, failed, retries }: Outcome): string {
  if (delivered + failed === 0) return 'none';
  return `${delivered} delivered${retries ? ` after ${count(retries, 'retry', 'retries')}` : ''}, ${failed ? `${failed} failed` : 'none failed'}`;
}

/** Whether a call failed every try: only then is the last failed try's error the job's (a retry may have succeeded). */
const failedForGood = (job: JobRecord) => job.deliveries.failed > 0 || webhookOutcome(job).failed > 0;

/** What happened when, from submission: each step's offset and what it was. */
function Timeline({ job }: { job: JobRecord }) {
  const events: [string, string][] = [[job.createdAt, 'submitted']];
  if (job.startedAt) events.push([job.startedAt, 'started']);
  for (const run of job.log)
    events.push([run.endedAt, `${commandName(run.command)} ended (exit ${run.exitCode ?? 'killed'}, ${run.ms} ms)`]);
  for (const call of job.calls) {
    for (const [i, attempt] of call.tries.entries())
      events.push([attempt.at, `${callName(call)}: try ${i + 1} ${answerOf(attempt)}`]);
  }
  if (job.finishedAt) events.push([job.finishedAt, `finished: ${job.state}`]);
  events.sort((a, b) => Date.parse(a[0]) - Date.parse(b[0]));
  return (
    <>
      <h3>Timeline</h3>
      <ol class="timeline">
        {events.map(([at, what], i) => (
          <li key={i}>
            <span class="offset">+{seconds(job.createdAt, at)}</span> {what}
          </li>
        ))}
      </ol>
    </>
  );
}

const commandName = (command: string) => command.split(' ')[0]!.split('/').pop()!;

function callName(call: DeliveryCall): string {
  return call.kind === 'upload' ? `upload ${call.file}` : `webhook ${call.job} ${call.status}`;
}

function answerOf(attempt: DeliveryCall['tries'][number]): string {
  return attempt.status !== undefined
    ? `answered ${attempt.status} in ${attempt.ms} ms`
    : `failed after ${attempt.ms} ms: ${attempt.error ?? ''}`;
}

/** Category of an upload delivery (the contract's `transcoderUpload`), from its fields. */
function category(call: Extract<DeliveryCall, { kind: 'upload' }>): string {
  const fields = call.fields as Record<string, unknown>;
  if (fields['thumbnail']) return 'thumbnail';
  if (fields['vod'] === false) return 'converted file';
  if (fields['playlist']) return 'master playlist';
  if (fields['downloadable']) return 'downloadable file';
  return `HLS ${String(fields['resolution'])}p`;
}

function Calls({ calls }: { calls: DeliveryCall[] }) {
  return (
    <>
      <h3>Deliveries and webhook calls</h3>
      <DataTable
        caption="Calls the job made, with every try and its answer"
        rows={calls}
        rowKey={(call) =>
          `${call.kind}:${call.url}:${call.kind === 'upload' ? call.file + JSON.stringify(call.fields) : call.job + call.status}`
        }
        empty="No calls yet."
        columns={[
          {
            title: 'Call',
            cell: (call) =>
              call.kind === 'upload' ? `upload: ${category(call)}` : `webhook: ${call.job} ${call.status}`,
          },
          {
            title: 'File',
            cell: (call) => (call.kind === 'upload' ? ('path' in call.fields ? call.fields.path : call.file) : ''),
          },
          { title: 'Address', cell: (call) => <span class="url">{call.url}</span> },
          { title: 'Tries', cell: (call) => call.tries.map(answerOf).join('; ') },
          { title: 'Delivered', cell: (call) => (call.delivered ? 'yes' : 'no') },
        ]}
      />
    </>
  );
}

/** Each command the job ran (ffmpeg's, ffprobe's) with the end of its log, folded. */
function Log({ job }: { job: JobRecord }) {
  return (
    <>
      <h3>ffmpeg log</h3>
      {job.log.length === 0 && <p>No commands ran{job.state === 'queued' || job.state === 'running' ? ' yet' : ''}.</p>}
      {job.log.map((run, i) => (
        <details key={i} class="log">
          <summary>
            {commandName(run.command)}: exit {run.exitCode ?? 'killed'} after {run.ms} ms
          </summary>
          <pre role="region" tabIndex={0} aria-label={`Command ${i + 1}`}>
            {run.command}
          </pre>
          <pre role="region" tabIndex={0} aria-label={`Output of command ${i + 1}`}>
            {run.output || '(no output)'}
          </pre>
        </details>
      ))}
    </>
  );
}

/**
 * The delivered files where the receiver serves them: thumbnails, converted and downloadable files, and the VOD
 * master playlist to play. The transcoder only knows where it sent them; the preset's `vodPlaylistBaseUrl` (or an
 * address typed here, kept in the URL) says where the receiver serves what it stored, laid out by `path` or
 * `<videoId>/<file name>` as the SDK's delivery receiver does.
 */
function Results({ job }: { job: JobRecord }) {
  const query = useRoute().query;
  const presetBase = job.settings.preset?.['vodPlaylistBaseUrl'] as string | undefined;
  // The address comes from the URL (anyone may send the admin a link) or a stored preset: http(s) only.
  const given = query.get('base') ?? presetBase ?? '';
  const base = httpAddress(given)?.replace(/\/+$/, '');
  const [playing, setPlaying] = useState(false);
  const uploads = job.calls.filter(
    (c): c is Extract<DeliveryCall, { kind: 'upload' }> => c.kind === 'upload' && c.delivered,
  );
  const addressOf = (call: Extract<DeliveryCall, { kind: 'upload' }>) =>
    `${base}/${'path' in call.fields ? call.fields.path : `${job.videoId}/${call.file}`}`;
  const thumbnails = uploads.filter((c) => 'thumbnail' in c.fields);
  const files = uploads.filter((c) => ('vod' in c.fields && c.fields.vod === false) || 'downloadable' in c.fields);
  const vod = uploads.some((c) => 'playlist' in c.fields);
  return (
    <section aria-labelledby="job-results">
      <h3 id="job-results">Results</h3>
      <Field
        label="Where the receiver serves the delivered files"
        hint="The preset's vodPlaylistBaseUrl unless you give another address."
      >
        {(id) => <input id={id} type="url" value={given} onChange={(e) => setQuery({ base: e.currentTarget.value })} />}
      </Field>
      {given && !base && <Status error={new Error('Only an http: or https: address can show the delivered files.')} />}
      {base && thumbnails.length > 0 && (
        <ul class="thumbnails">
          {thumbnails.map((call) => (
            <li key={call.file}>
              <img src={addressOf(call)} alt={`Thumbnail ${call.file}`} loading="lazy" />
            </li>
          ))}
        </ul>
      )}
      {base && files.length > 0 && (
        <ul>
          {files.map((call) => (
            <li key={call.file}>
              <a href={addressOf(call)}>{call.file}</a>
            </li>
          ))}
        </ul>
      )}
      {vod && job.state === 'complete' && base && (
        <>
          {!playing && (
            <button type="button" class="primary" onClick={() => setPlaying(true)}>
              Play the converted video
            </button>
          )}
          {playing && (
            <HlsPlayer src={`${base}/${job.videoId}/playlist.m3u8`} label={`Converted video ${job.videoId}`} />
          )}
        </>
      )}
    </section>
  );
}
