import { DataTable } from '../../components/data-table.js';
import type { Mail } from './model.js';

/** E-mails the service would have sent, newest first, each with its confirmation link (opening it activates the user). */
export function Outbox({ messages, caption }: { messages: Mail[]; caption: string }) {
  const newestFirst = [...messages].reverse();
  const link = (mail: Mail) => (
    <a href={mail.link} target="_blank" rel="noreferrer">
      Confirmation link for {mail.to}
    </a>
  );
  return (
    <div class="outbox">
      <DataTable
        caption={caption}
        rows={newestFirst}
        rowKey={(mail) => mail.link ?? mail.text}
        empty="No e-mails."
        columns={[
          { title: 'To', cell: (mail) => mail.to },
          { title: 'Subject', cell: (mail) => mail.subject },
          { title: 'Text', cell: (mail) => mail.text },
          { title: 'Link', cell: link },
        ]}
      />
    </div>
  );
}
