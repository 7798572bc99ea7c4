import { DataTable } from '../../components/data-table.js';
import { UserLink } from '../../components/user-link.js';
import { href } from '../../router.js';
import type { JobRecord } from './calls.js';

/** Every job the server keeps, newest first, each a link to its page. */
export function JobsTable({ jobs }: { jobs: JobRecord[] }) {
  return (
    <section aria-labelledby="transcoder-jobs">
      <h2 id="transcoder-jobs">Jobs</h2>
      <DataTable
        caption="Conversion jobs, newest first"
        rows={[...jobs].reverse()}
        rowKey={(job) => job.queueId}
        empty="No jobs yet."
        columns={[
          { title: 'Request', cell: (job) => <a href={href('transcoder', 'jobs', job.requestId)}>{job.requestId}</a> },
          { title: 'State', cell: (job) => <span class={`state ${job.state}`}>{job.state}</span> },
          {
            title: 'By',
            cell: (job) => (job.userId ? <UserLink userId={job.userId} /> : 'master'),
          },
          { title: 'Source', cell: (job) => <span class="url">{job.url}</span> },
          { title: 'Submitted', cell: (job) => job.createdAt },
          { title: 'Took', cell: (job) => (job.finishedAt ? seconds(job.createdAt, job.finishedAt) : '') },
        ]}
      />
    </section>
  );
}

/** The time from one ISO instant to another, in seconds: `"1.25 s"`. */
export function seconds(from: string, to: string): string {
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(2)} s`;
}
