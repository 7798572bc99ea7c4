import type { PageProps } from './page-props.js';
import { RequestList } from './requests/request-list.js';
import { RequestView } from './requests/request-view.js';

/** The Requests page (the request inspector): /requests is the live list, /requests/<id> opens one request. */
export default function RequestsPage({ params }: PageProps) {
  const [id] = params;
  return id ? <RequestView id={id} /> : <RequestList />;
}
