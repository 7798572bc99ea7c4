// The usernames of the user ids pages show (file owners, who submitted a job, a setting's owner): looked up together,
// up to 100 ids a call (`POST /auth/users/by-user-ids`), each once while a page is open, so a page of ids costs one
// call. A new page starts afresh (a user renamed elsewhere shows their new name).
import { useEffect, useState } from 'preact/hooks';
import { dataOf, project, service } from './api.js';

/** The service's most ids in one by-ids call. */
const MAX_IDS = 100;

/** id -> username; null: no such user (any more); the id itself when it could not be looked up. */
let known = new Map<string, string | null>();
let knownFor: string | undefined;
let wanted = new Set<string>();
/** Ids being looked up now. */
const pending = new Set<string>();
const listeners = new Set<() => void>();

/** Forgets what was looked up (a new page). */
export function forgetUsernames(): void {
  known = new Map();
}

function names(): Map<string, string | null> {
  const current = project().authenticationId;
  if (knownFor !== current) {
    known = new Map();
    knownFor = current;
  }
  return known;
}

async function lookUp(): Promise<void> {
  const ids = [...wanted];
  wanted = new Set();
  for (const id of ids) pending.add(id);
  const found = names();
  for (let i = 0; i < ids.length; i += MAX_IDS) {
    const batch = ids.slice(i, i + MAX_IDS);
    try {
      const { users } = await dataOf(service().POST('/auth/users/by-user-ids', { body: { userIds: batch } }));
      for (const id of batch) found.set(id, null);
      for (const user of users) found.set(user.userId, user.username);
    } catch {
      // The users service is off, say: the ids are shown as they are, and not asked for again.
      for (const id of batch) found.set(id, id);
    }
  }
  for (const id of ids) pending.delete(id);
  for (const listener of listeners) listener();
}

/**
 * The username of `userId`: undefined while it is looked up, null when there is no such user (any more). Ids asked
 * for in the same moment are looked up in one call.
 */
export function useUsername(userId: string): string | null | undefined {
  const [, setVersion] = useState(0);
  const name = names().get(userId);
  useEffect(() => {
    if (names().has(userId)) return;
    const listener = () => setVersion((v) => v + 1);
    listeners.add(listener);
    if (!pending.has(userId)) {
      if (wanted.size === 0) queueMicrotask(() => void lookUp());
      wanted.add(userId);
    }
    return () => void listeners.delete(listener);
  }, [userId, name === undefined]);
  return name;
}
