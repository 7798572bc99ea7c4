import { ErrorCode, badRequest } from '../../shared/errors.js';
import { jsonBytes } from '../../shared/http/body.js';

/** The fields a user sets at registration and changes by update (the contract's `registerUser`, `updateCurrentUser` and `updateUser`). */
const PROFILE_FIELDS = ['username', 'firstName', 'lastName', 'email', 'phoneNumber'] as const;
export type Profile = Partial<Record<(typeof PROFILE_FIELDS)[number], string>>;

/** What a registration body holds once checked. */
export interface Registration {
  profile: Profile & { username: string };
  password: string;
  avatar: string;
  extra: Record<string, string>;
}

const NAME_LIMIT = 40;
const LIMITED_FIELDS: ReadonlySet<string> = new Set(['username', 'firstName', 'lastName']);
/** Record fields the server owns: an extra registration field may not take their names. */
const SERVER_FIELDS: ReadonlySet<string> = new Set(['instanceId', 'userId', 'guest', 'active']);
// The WHATWG rule for <input type=email> (what browsers and JSON Schema's `format: email` accept),
// with at least one dot in the domain: `ann@localhost` is almost always a typo in a sign-up form.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

const invalid = (message: string) => badRequest(ErrorCode.VALIDATION_FAILED, message);

/** Refuses every key of `body` outside `allowed`, so that a misspelt or read-only field is not silently dropped. */
export function rejectUnknownKeys(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw invalid(`"${unknown}" cannot be set here; allowed fields: ${allowed.join(', ')}`);
}

/** The profile fields present in `body`: strings, names of at most 40 characters, a valid e-mail, a non-empty username. */
export function readProfile(body: Record<string, unknown>): Profile {
  const profile: Profile = {};
  for (const field of PROFILE_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw invalid(`"${field}" must be a string`);
    // Characters, not UTF-16 units: an emoji counts once, as in JSON Schema's maxLength.
    if (LIMITED_FIELDS.has(field) && [...value].length > NAME_LIMIT)
      throw invalid(`"${field}" must be at most ${NAME_LIMIT} characters`);
    profile[field] = value;
  }
  if (profile.username === '') throw invalid('"username" must not be empty');
  if (profile.email && !EMAIL.test(profile.email))
    throw badRequest(ErrorCode.INVALID_EMAIL, `"${profile.email}" is not a valid e-mail address`);
  return profile;
}

/** A profile update: only the five profile fields (the contract's `updateCurrentUser` and `updateUser`). */
export function readProfileUpdate(body: Record<string, unknown>): Profile {
  rejectUnknownKeys(body, PROFILE_FIELDS);
  return readProfile(body);
}

/**
 * What a user stores besides the password (profile, avatar, extra fields) takes at most `limit` bytes as JSON
 * (`maxUserFieldsBytes`): anyone may register, so no registration may take much memory. 400 code 142 otherwise.
 */
export function checkFieldsSize(fields: object, limit: number): void {
  const size = jsonBytes(fields);
  if (size > limit)
    throw invalid(`a user's fields may take at most ${limit} bytes as JSON (maxUserFieldsBytes); these take ${size}`);
}

/** A required non-empty string field of `body` (400 otherwise). */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw invalid(`"${field}" is required and must be a non-empty string`);
  return value;
}

/** A registration body: username and password required, the profile, an avatar and extra string fields (the contract's `UserRegistration`). */
export function readRegistration(body: Record<string, unknown>): Registration {
  const username = requiredString(body, 'username');
  const password = requiredString(body, 'password');
  const profile = { ...readProfile(body), username };
  let avatar = '';
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((PROFILE_FIELDS as readonly string[]).includes(key) || key === 'password') continue;
    if (SERVER_FIELDS.has(key)) throw invalid(`"${key}" is set by the server and cannot be registered`);
    if (typeof value !== 'string') throw invalid(`"${key}" must be a string (extra user fields hold strings only)`);
    if (key === 'avatar') avatar = value;
    else extra[key] = value;
  }
  return { profile, password, avatar, extra };
}
