import { ApiError, ErrorCode } from '../../shared/errors.js';
import type { Principal } from '../../shared/env.js';
import type { Project } from '../../shared/project.js';
import type { SettingKind, SettingRecord } from './setting-kinds.js';
import { settingsBook, transcoderState, type SettingsBook, type TranscoderState } from './state.js';

// The settings records each owner keeps (the project's, a user's): where a record is saved, and the books a reference
// is looked up in. What a record may hold is checked first by `setting-checks.ts`.

/** Whose settings a caller writes and reads first: a user's id, or undefined for the master token (the project's). */
export type SettingsOwner = string | undefined;

export function settingsOwner(principal: Principal): SettingsOwner {
  return principal.isMaster ? undefined : principal.userId;
}

/** The books a reference is looked up in, in order: the owner's own, then (for users) the project's. */
export function booksFor(state: TranscoderState, owner: SettingsOwner): SettingsBook[] {
  if (owner === undefined) return [state.settings];
  const own = state.userSettings.get(owner);
  return own ? [own, state.settings] : [state.settings];
}

/**
 * Stores a settings record (the contract's `saveThumbnailSettings` and the four beside it), checked by `validateSetting`, among the owner's: the master token's are the project's, a user's
 * are theirs alone. Names are unique per kind and owner: a record with an existing name replaces it, a new name
 * past `transcoderMaxSettingsPerKind` answers 400 (704). `default: true` makes it the kind's one default of that
 * owner, taking the mark from the previous one.
 */
export function saveSetting(
  project: Project,
  owner: SettingsOwner,
  kind: SettingKind,
  record: SettingRecord,
): { record: SettingRecord; created: boolean } {
  const state = project.state(transcoderState);
  const existing = owner === undefined ? state.settings : state.userSettings.get(owner);
  const created = !existing?.[kind].has(record.name);
  const max = project.config.transcoderMaxSettingsPerKind;
  if (created && (existing?.[kind].size ?? 0) >= max) {
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_SETTINGS,
      `"name": there are ${max} ${kind} settings already (transcoderMaxSettingsPerKind); save under one of their names to replace it`,
    );
  }
  const book = existing ?? settingsBook();
  if (owner !== undefined) state.userSettings.set(owner, book);
  const records = book[kind];
  if (record.default) for (const other of records.values()) other.default = false;
  records.set(record.name, record);
  return { record, created };
}
