import { ApiError, ErrorCode } from '../../shared/errors.js';
import { newSecret } from '../../shared/ids.js';
import type { Project } from '../../shared/project.js';
import { usersState, type StoredUser } from './state.js';

/** Where a confirmation link points; `routes.ts` serves it with GET. */
export const CONFIRMATION_PATH = '/auth/confirm';

/**
 * Puts the confirmation e-mail of a new inactive user in the outbox (`GET /__admin/outbox`).
 * `origin` is the origin the registration came to, so the link works from wherever the server is reached.
 */
export function sendConfirmation(project: Project, user: StoredUser, origin: string): void {
  const token = newSecret();
  project.state(usersState).confirmations.set(token, user.userId);
  const link = `${origin}${CONFIRMATION_PATH}/${token}`;
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
  const user = state.users.get(state.confirmations.get(token) ?? '');
  if (!user) throw new ApiError(404, ErrorCode.UNKNOWN_CONFIRMATION, 'this confirmation link is unknown');
  user.active = true;
  return user;
}
