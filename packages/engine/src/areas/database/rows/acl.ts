import type { Principal } from '../../../shared/env.js';
import { type ApiError, ErrorCode, badRequest, forbidden } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';

/** Principal (`*` for everyone, or a user id) -> permissions. */
export type Acl = Record<string, { read?: boolean; write?: boolean }>;

const aclError = () =>
  badRequest(ErrorCode.INCORRECT_TYPE, 'ACL must map "*" or user ids to objects with boolean "read" and "write"');

/** Validates an ACL value: an object of principals to `{read?: boolean, write?: boolean}`; 400 code 111 otherwise. */
export function parseAcl(value: unknown): Acl {
  if (!isPlainObject(value)) throw aclError();
  const acl: Acl = {};
  for (const [principal, permissions] of Object.entries(value)) {
    if (principal === '' || !isPlainObject(permissions)) throw aclError();
    const entry: Acl[string] = {};
    for (const [permission, allowed] of Object.entries(permissions)) {
      if ((permission !== 'read' && permission !== 'write') || typeof allowed !== 'boolean') throw aclError();
      entry[permission] = allowed;
    }
    acl[principal] = entry;
  }
  return acl;
}

function allows(acl: Acl | undefined, principal: Principal, permission: 'read' | 'write'): boolean {
  if (!acl || principal.isMaster) return true;
  return (
    acl['*']?.[permission] === true || (principal.userId !== undefined && acl[principal.userId]?.[permission] === true)
  );
}

/** A row without an ACL is public; the master token reads everything. */
export const canRead = (row: { ACL?: Acl }, principal: Principal) => allows(row.ACL, principal, 'read');
export const canWrite = (row: { ACL?: Acl }, principal: Principal) => allows(row.ACL, principal, 'write');

/**
 * The 403 of a row whose ACL refuses `permission` to the caller, saying which permission was missing and for whom
 * (not who else has it: that is the row owner's business).
 */
export function aclRefusal(id: string, principal: Principal, permission: 'read' | 'write', action: string): ApiError {
  const caller = principal.userId === undefined ? 'the caller' : `user "${principal.userId}"`;
  return forbidden(
    `the ACL of row "${id}" does not let you ${action} it: it gives "${permission}" neither to "*" nor to ${caller} (the master token may)`,
  );
}
