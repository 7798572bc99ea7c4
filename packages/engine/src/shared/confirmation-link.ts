/** Where confirmation links point (`GET /auth/confirm/<token>`): the users area makes and serves them. */
export const CONFIRMATION_PATH = '/auth/confirm';

/**
 * The token of a confirmation link's path, undefined for any other path: what the server's registry of projects
 * finds a link's project by (a link carries no header naming it).
 *
 * @example
 * confirmationToken('/auth/confirm/9e107d9d'); // '9e107d9d'
 */
export function confirmationToken(path: string): string | undefined {
  const prefix = `${CONFIRMATION_PATH}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}
