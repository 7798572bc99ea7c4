import { DataTable } from '../../components/data-table.js';
import { httpAddress } from '../../links.js';
import type { Mail } from './model.js';

/** E-mails the service would have sent, newest first, each with its confirmation link (opening it activates the user). */
export function Outbox({ messages, caption }: { messages: Mail[]; caption: string }) {
  const newestFirst = [...messages].reverse();
  // An outbox may come from an imported state: only an http(s) link is made a link.
  const link = (mail: Mail) => {
    const address = httpAddress(mail.link);
    return address ? (
      <a href={address} target="_blank" rel="noreferrer">
        Confirmation link for {mail.to}
      </a>
    ) : (
      <code>{mail.link}</code>
    );
  };
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
