import type { Project } from '../shared/project.js';
import { ApiError, ErrorCode } from '../shared/errors.js';
import { REPLAY_HEADER, type Exchange, type ExchangeSummary } from './exchange.js';
import type { Inspector } from './inspector.js';

/**
 * Sends a kept request to its project once more, as it came (its token, key and body too, which never left the
 * server), and answers the summary of the new request, which the inspector lists like any other. 409 (code 60) when
 * its body was not kept. The replay goes through the project's journal like any request: what it changes is kept.
 */
export async function replay(project: Project, inspector: Inspector, exchange: Exchange): Promise<ExchangeSummary> {
  const request = exchange.resend(project.config.headerWord[0]!.toLowerCase());
  if (!request)
    throw new ApiError(
      409,
      ErrorCode.REQUEST_BODY_NOT_KEPT,
      'the body of this request was not kept (streamed, or larger than inspectorBodyBytes): it cannot be sent again',
    );
  let replayed: Exchange | undefined;
  const stop = inspector.subscribe((answered) => {
    if (answered.requestHeader(REPLAY_HEADER) === exchange.id) replayed ??= answered;
  });
  try {
    const response = await project.dispatch!(request);
    await response.body?.cancel();
  } finally {
    stop();
  }
  if (!replayed) throw new Error(`the replay of ${exchange.id} was not recorded`);
  return replayed.summary();
}
