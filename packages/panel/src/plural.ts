/**
 * A number and its noun, singular for one: `count(1, 'entry', 'entries')` is "1 entry", `count(3, 'retry',
 * 'retries')` "3 retries". `many` defaults to `one` with an s.
 */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
