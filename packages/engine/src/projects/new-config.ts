import {
  ConfigError,
  IDENTITY_KEYS,
  SERVER_KEYS,
  configOver,
  resolveConfig,
  type Config,
  type ConfigInput,
} from '../config.js';
import { ErrorCode, badRequest } from '../shared/errors.js';
import { newId, newSecret, unrecorded } from '../shared/ids.js';

/** What a new project does not take from the default project: its ids, its keys, and the server's own keys. */
const NOT_INHERITED = new Set<string>([...IDENTITY_KEYS, ...SERVER_KEYS]);

/** Refuses (400) keys of the whole server in what is given for one project. */
export function refuseServerKeys(input: Record<string, unknown>): void {
  const key = SERVER_KEYS.find((k) => k in input);
  if (key)
    throw badRequest(ErrorCode.SERVER_KEY, `"${key}" is a key of the whole server: it cannot be given for one project`);
}

/**
 * The config of a project created at run time: the given keys over the default project's config (its game, limits,
 * services and header words), with ids and keys of its own, generated unless given: a random authentication id,
 * the other ids named after it (`<id>-db`, `<id>-storage`, `<id>-game`), random keys. A bad key is a 400.
 */
export function newProjectConfig(defaults: Config, input: Record<string, unknown>): Config {
  refuseServerKeys(input);
  const inherited = Object.fromEntries(
    Object.entries(defaults).filter(([key]) => !NOT_INHERITED.has(key)),
  ) as Partial<ConfigInput>;
  const given = input as Partial<ConfigInput>;
  const id =
    typeof given.authenticationId === 'string' ? given.authenticationId : `p-${newId(unrecorded, 12).toLowerCase()}`;
  const generated: ConfigInput = {
    authenticationId: id,
    clientKey: newSecret(unrecorded, 16),
    masterKey: newSecret(unrecorded, 16),
    objectStorageId: `${id}-db`,
    storageId: `${id}-storage`,
    gameId: `${id}-game`,
  };
  try {
    return resolveConfig(configOver({ ...inherited, ...generated }, given));
  } catch (error) {
    if (error instanceof ConfigError) throw badRequest(ErrorCode.VALIDATION_FAILED, error.message);
    throw error;
  }
}
