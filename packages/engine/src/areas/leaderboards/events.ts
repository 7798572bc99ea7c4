import type { EventDefinition } from '../../config.js';
import { ApiError, ErrorCode, badRequest, type ErrorCodeValue } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/http.js';
import type { Project } from '../../shared/project.js';
import { Standing, type Leaderboard, type Scores } from './leaderboard.js';
import { leaderboards } from './state.js';

/** 417 "event data incorrect" (spec 7). */
const incorrect = (code: ErrorCodeValue, message: string) => new ApiError(417, code, message);

/** The shape of spec 4.8 #1; 400 when `eventName` or a `fieldName` is null or missing (spec 7). */
function parseBody(body: Record<string, unknown>): { eventName: string; fieldsAndValues: Record<string, unknown>[] } {
  const { eventName, fieldsAndValues } = body;
  if (typeof eventName !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, '"eventName" is required and must be a string');
  if (!Array.isArray(fieldsAndValues)) throw badRequest(ErrorCode.VALIDATION_FAILED, '"fieldsAndValues" is required and must be an array');
  fieldsAndValues.forEach((item, i) => {
    if (!isPlainObject(item) || typeof item['fieldName'] !== 'string') {
      throw badRequest(ErrorCode.VALIDATION_FAILED, `"fieldsAndValues[${i}].fieldName" is required and must be a string`);
    }
  });
  return { eventName, fieldsAndValues };
}

/** The event's values by field name, checked against its definition in the config (417 for anything that does not fit). */
function eventValues(definitions: EventDefinition[], eventName: string, fieldsAndValues: Record<string, unknown>[]): Map<string, number> {
  const definition = definitions.find((event) => event.name === eventName);
  if (!definition) throw incorrect(ErrorCode.UNKNOWN_EVENT, `no event "${eventName}"`);
  if (fieldsAndValues.length === 0) throw incorrect(ErrorCode.INVALID_EVENT_VALUE, 'an event carries at least one field value');
  const values = new Map<string, number>();
  for (const { fieldName, value } of fieldsAndValues as { fieldName: string; value: unknown }[]) {
    if (!definition.fields.includes(fieldName)) throw incorrect(ErrorCode.UNKNOWN_FIELD, `event "${eventName}" has no field "${fieldName}"`);
    if (values.has(fieldName)) throw incorrect(ErrorCode.INVALID_EVENT_VALUE, `field "${fieldName}" is given twice`);
    if (typeof value !== 'number' || !Number.isFinite(value)) throw incorrect(ErrorCode.INVALID_EVENT_VALUE, `the value of "${fieldName}" must be a number`);
    values.set(fieldName, value);
  }
  return values;
}

/**
 * Applies a game event (spec 4.8 #1, 6) of `userId`: every leaderboard defined on a field the event carries
 * aggregates the new value. All-or-nothing: every check, including a sum that would overflow, comes first.
 *
 * @example
 * submitEvent(project, userId, { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 120 }] });
 */
export function submitEvent(project: Project, userId: string, body: Record<string, unknown>): void {
  const { eventName, fieldsAndValues } = parseBody(body);
  const values = eventValues(project.config.events, eventName, fieldsAndValues);
  const state = leaderboards(project);
  const changes: [Leaderboard, Scores][] = [];
  for (const board of state.boards.values()) {
    const boardValues = board.definition.fields.map(({ event, field }) => (event === eventName ? values.get(field) : undefined));
    if (boardValues.every((value) => value === undefined)) continue;
    const scores = board.aggregate(userId, boardValues);
    if (!scores) continue;
    if (!scores.every(Number.isFinite)) throw incorrect(ErrorCode.INVALID_EVENT_VALUE, `the scores of leaderboard "${board.definition.id}" would overflow`);
    changes.push([board, scores]);
  }
  if (changes.length === 0) return;
  const reached = state.sequence++;
  for (const [board, scores] of changes) board.record(new Standing(userId, scores, reached));
}
