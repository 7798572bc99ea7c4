import { ApiError, ErrorCode } from '../../shared/errors.js';
import { newKeptSecret } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { CONFIRMATION_PATH } from '../../shared/confirmation-link.js';
import { usersState, type StoredUser } from './state.js';

/**
 * Where links the server sends point: the config's `publicUrl`, else the address the server listens on. A client's
 * Host header never decides it (anyone registering could make the e-mail point at their own site). Only without
 * either, in a browser (msw), is it the origin the request was made to, which the page itself chose.
 */
function linkBase(project: Project, requestOrigin: string): string {
  return (project.config.publicUrl ?? project.serverUrl ?? requestOrigin).replace(/\/+$/, '');
}

/**
 * Puts the confirmation e-mail of a new inactive user in the outbox (`GET /__admin/outbox`).
 *
 * @param requestOrigin the origin of the registration request, used only when the server's own address is unknown
 */
export function sendConfirmation(project: Project, moment: Moment, user: StoredUser, requestOrigin: string): void {
  const token = newKeptSecret(moment);
  project.state(usersState).confirmations.add(token, { userId: user.userId });
  project.linkMade(token);
  const link = `${linkBase(project, requestOrigin)}${CONFIRMATION_PATH}/${token}`;
  project.outbox.push({
    to: user.email,
    subject: 'Confirm your registration',
    text: `Hello ${user.username}, open this link to activate your account: ${link}`,
    link,
  });
}

/**
 * Activates the user a confirmation link was sent to. The link stays valid, so opening it again
 * (a mail client's link preview, a second click) answers the same.
 */
export function confirmRegistration(project: Project, token: string): StoredUser {
  const state = project.state(usersState);
  const user = state.users.get(state.confirmations.get(token)?.userId ?? '');
  if (!user) throw new ApiError(404, ErrorCode.UNKNOWN_CONFIRMATION, 'this confirmation link is unknown');
  user.active = true;
  return user;
}
