import type { EventDefinition } from '../../config.js';
import { ApiError, ErrorCode, badRequest, type ErrorCodeValue } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/http/body.js';
import type { Project } from '../../shared/project.js';
import { Standing, type Leaderboard, type Scores } from './leaderboard.js';
import { leaderboards } from './state.js';

/** 417 "event data incorrect" (docs/errors.md). */
const incorrect = (code: ErrorCodeValue, message: string) => new ApiError(417, code, message);

/** The shape of the contract's `submitGameEvent`; 400 when `eventName` or a `fieldName` is null or missing (docs/errors.md). */
function parseBody(body: Record<string, unknown>): { eventName: string; fieldsAndValues: Record<string, unknown>[] } {
  const { eventName, fieldsAndValues } = body;
  if (typeof eventName !== 'string')
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"eventName" is required and must be a string');
  if (!Array.isArray(fieldsAndValues))
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"fieldsAndValues" is required and must be an array');
  fieldsAndValues.forEach((item, i) => {
    if (!isPlainObject(item) || typeof item['fieldName'] !== 'string') {
      throw badRequest(
        ErrorCode.VALIDATION_FAILED,
        `"fieldsAndValues[${i}].fieldName" is required and must be a string`,
      );
    }
  });
  return { eventName, fieldsAndValues };
}

/** The event's values by field name, checked against its definition in the config (417 for anything that does not fit). */
function eventValues(
  definitions: EventDefinition[],
  eventName: string,
  fieldsAndValues: Record<string, unknown>[],
): Map<string, number> {
  const definition = definitions.find((event) => event.name === eventName);
  if (!definition) throw incorrect(ErrorCode.UNKNOWN_EVENT, `no event "${eventName}"`);
  if (fieldsAndValues.length === 0)
    throw incorrect(ErrorCode.INVALID_EVENT_VALUE, 'an event carries at least one field value');
  const values = new Map<string, number>();
  for (const { fieldName, value } of fieldsAndValues as { fieldName: string; value: unknown }[]) {
    if (!definition.fields.includes(fieldName))
      throw incorrect(ErrorCode.UNKNOWN_FIELD, `event "${eventName}" has no field "${fieldName}"`);
    if (values.has(fieldName)) throw incorrect(ErrorCode.INVALID_EVENT_VALUE, `field "${fieldName}" is given twice`);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw incorrect(ErrorCode.INVALID_EVENT_VALUE, `the value of "${fieldName}" must be a number`);
    values.set(fieldName, value);
  }
  return values;
}

/** An event that passed every check but the overflow of a sum: whose it is, its name and its values by field. */
interface CheckedEvent {
  userId: string;
  eventName: string;
  values: Map<string, number>;
}

/** A player's standing on a board before an event of a bulk changed it, to put back if a later event fails. */
type Undo = [board: Leaderboard, userId: string, before: Standing | undefined][];

function checkEvent(project: Project, userId: string, body: Record<string, unknown>): CheckedEvent {
  const { eventName, fieldsAndValues } = parseBody(body);
  return { userId, eventName, values: eventValues(project.config.events, eventName, fieldsAndValues) };
}

/**
 * Every leaderboard defined on a field the event carries aggregates the new value; the overflow of a sum is checked
 * before anything changes. Only the boards defined on the event are visited, however many the project has.
 */
function applyEvent(project: Project, { userId, eventName, values }: CheckedEvent, undo?: Undo): void {
  const state = leaderboards(project);
  const changes: [Leaderboard, Scores][] = [];
  for (const id of state.byEvent.get(eventName) ?? []) {
    const board = state.boards.get(id)!;
    const boardValues = board.definition.fields.map(({ event, field }) =>
      event === eventName ? values.get(field) : undefined,
    );
    if (boardValues.every((value) => value === undefined)) continue;
    const scores = board.aggregate(userId, boardValues);
    if (!scores) continue;
    if (!scores.every(Number.isFinite))
      throw incorrect(
        ErrorCode.INVALID_EVENT_VALUE,
        `the scores of leaderboard "${board.definition.id}" would overflow`,
      );
    changes.push([board, scores]);
  }
  if (changes.length === 0) return;
  const reached = state.sequence++;
  for (const [board, scores] of changes) {
    undo?.push([board, userId, board.standing(userId)]);
    board.record(new Standing(userId, scores, reached));
  }
}

/**
 * Applies a game event (the contract's `submitGameEvent`) of `userId`: every leaderboard defined on a field the event carries
 * aggregates the new value. All-or-nothing: every check, including a sum that would overflow, comes first.
 *
 * @example
 * submitEvent(project, userId, { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 120 }] });
 */
export function submitEvent(project: Project, userId: string, body: Record<string, unknown>): void {
  applyEvent(project, checkEvent(project, userId, body));
}

/** Runs `step` for item `index` of a bulk; an error it throws names the item. */
function atItem<T>(index: number, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ApiError)
      throw new ApiError(error.status, error.code, `eventBunchDataList[${index}]: ${error.message}`);
    throw error;
  }
}

/**
 * Applies several players' events in their order (beyond the spec: `POST /game/events/bulk`, the published Node
 * client's `EventBulk.send`, with the master token): `{eventBunchDataList: [{userId, eventName, fieldsAndValues}]}`.
 * All or nothing: every item is checked as a single event would be, and its user must exist (417, code 214); a sum
 * that would overflow puts back every standing the earlier items changed. An error names the item.
 *
 * @example
 * submitEvents(project, { eventBunchDataList: [{ userId, eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 120 }] }] });
 */
export function submitEvents(project: Project, body: Record<string, unknown>): void {
  const { eventBunchDataList: items } = body;
  if (!Array.isArray(items))
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"eventBunchDataList" is required and must be an array');
  const events = items.map((item, index) =>
    atItem(index, () => {
      if (!isPlainObject(item))
        throw badRequest(ErrorCode.VALIDATION_FAILED, 'an item must be an object {userId, eventName, fieldsAndValues}');
      const { userId, ...event } = item;
      if (typeof userId !== 'string')
        throw badRequest(ErrorCode.VALIDATION_FAILED, '"userId" is required and must be a string');
      if (!project.directory.has(userId)) throw incorrect(ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
      return checkEvent(project, userId, event);
    }),
  );
  const state = leaderboards(project);
  const sequence = state.sequence;
  const undo: Undo = [];
  try {
    for (const [index, event] of events.entries()) atItem(index, () => applyEvent(project, event, undo));
  } catch (error) {
    for (const [board, userId, before] of undo.reverse()) {
      if (before) board.record(before);
      else board.remove(userId);
    }
    state.sequence = sequence;
    throw error;
  }
}
