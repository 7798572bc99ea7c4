import type { Moment } from '../moment.js';
import type { Project } from '../project.js';

// Why an access token was refused, in words for its 401: loaded with the first refusal (a page that mocks the
// service rarely sends a bad token).

/** The claims of a token read without checking its signature; undefined when it has none. */
function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (part === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the project's tokens refused `token`: malformed, of another project, a signature that is not this project's,
 * or expired (when, and the server's time at `moment`).
 */
export async function refusal(project: Project, token: string, moment: Moment): Promise<string> {
  const pid = unverifiedClaims(token)?.['pid'];
  const { authenticationId } = project.config;
  if (pid === undefined) return 'the access token is malformed: it is not a token this service issued';
  if (pid !== authenticationId)
    return `the access token is of another project (${JSON.stringify(pid)}), not of "${authenticationId}"`;
  const claims = await project.tokens.signed(token);
  if (!claims)
    return "the access token's signature is not this project's: it was altered, or signed before the project's master key changed";
  return `the access token expired at ${new Date(claims.exp * 1000).toISOString()} (server time now ${moment.iso()})`;
}
