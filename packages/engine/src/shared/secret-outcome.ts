/**
 * Work on a secret that a client sent or was handed (a password, a refresh token) whose result decides what a
 * request changes: a password's hash, a token's digest. The journal never writes the secret itself: while it records
 * a request it swaps `secretWork.run` to keep each result in order, and when it replays the request (its secrets
 * stripped) to hand the kept results back instead of doing the work again.
 */
export const secretWork = {
  run: <T>(work: () => Promise<T>): Promise<T> => work(),
};

/**
 * The result of `work` on a secret, kept by the journal in place of the secret (see `secretWork`): the result must be
 * plain JSON, and nothing secret.
 *
 * @example
 * const hash = await secretOutcome(() => pbkdf2(password, salt)); // replayed from the journal without the password
 */
export function secretOutcome<T>(work: () => Promise<T>): Promise<T> {
  return secretWork.run(work);
}
