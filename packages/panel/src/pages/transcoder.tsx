// The Transcoder page: saved settings of each kind, a convert form and every job; a job's own page shows its
// timeline, ffmpeg's log, deliveries and webhook calls with their answers, thumbnails and the converted video.
// URLs: /transcoder, /transcoder/jobs/<requestId>.
import { useEffect } from 'preact/hooks';
import { focusField, usePageCommands } from '../commands.js';
import { Status } from '../components/status.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';
import type { PageProps } from './page-props.js';
import { finished, listJobs, listSettings } from './transcoder/calls.js';
import { ConvertForm } from './transcoder/convert-form.js';
import { JobView } from './transcoder/job.js';
import { JobsTable } from './transcoder/jobs-table.js';
import { SettingsSection } from './transcoder/settings.js';

/** How often jobs are read again while one of them is still queued or running. */
const POLL_MS = 1000;

export default function TranscoderPage({ params }: PageProps) {
  // Read again on every move within the page: a job just submitted is then found.
  const jobs = useLoad(listJobs, [params.join('/')]);
  const busy = jobs.data?.some((job) => !finished(job));
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(jobs.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, jobs.data]);
  if (params[0] === 'jobs' && params[1]) {
    const job = jobs.data?.find((j) => j.requestId === params[1] || j.queueId === params[1]);
    if (job) return <JobView job={job} />;
    return (
      <Status error={jobs.error}>
        {jobs.loading ? (
          'Loading…'
        ) : (
          <>
            No job {params[1]} (the server keeps the last finished jobs only). <a href={href('transcoder')}>All jobs</a>
          </>
        )}
      </Status>
    );
  }
  return <Overview jobs={jobs} />;
}

function Overview({ jobs }: { jobs: ReturnType<typeof useLoad<Awaited<ReturnType<typeof listJobs>>>> }) {
  const settings = useLoad(listSettings, []);
  usePageCommands([
    { title: 'Convert a video', run: () => focusField('Source address') },
    { title: 'Save a setting', run: () => focusField('Record (JSON)') },
  ]);
  return (
    <>
      {settings.data && <ConvertForm all={settings.data} />}
      {jobs.data && <JobsTable jobs={jobs.data} />}
      {settings.data && <SettingsSection all={settings.data} onSaved={settings.reload} />}
      <Status error={settings.error ?? jobs.error}>{settings.loading || jobs.loading ? 'Loading…' : ''}</Status>
    </>
  );
}
