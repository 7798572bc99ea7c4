import type { Project } from '../../shared/project.js';
import { validateSetting, type Kind, type SettingRecord } from './settings.js';
import { transcoderState } from './state.js';

/**
 * Stores a settings record (spec 4.7 #1-#5). Names are unique per kind: a record with an existing name replaces it.
 * `default: true` makes it the kind's one default, taking the mark from the previous one.
 */
export function saveSetting(project: Project, kind: Kind, body: unknown): { record: SettingRecord; created: boolean } {
  const record = validateSetting(kind, body);
  const records = project.state(transcoderState).settings[kind];
  const created = !records.has(record.name);
  if (record.default) for (const other of records.values()) other.default = false;
  records.set(record.name, record);
  return { record, created };
}
