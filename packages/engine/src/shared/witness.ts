import { entropy } from './ids.js';
import { secretWork } from './secret-outcome.js';

// What a request reads from outside its own input and the state: random bytes and the results of work on secrets.
// The journal keeps them while it records a change (`witnessing`) and hands them back when it replays it
// (`replaying`), by swapping the engine's random source and `secretWork` for the time of the request.

/**
 * What one recorded request reads from outside its own input: the random bytes it draws and the results of its work
 * on secrets, each only when `mine` says the draw or work is the request's own.
 */
export class Witness {
  readonly drawn: Uint8Array[] = [];
  readonly outcomes: unknown[] = [];

  constructor(readonly mine: () => boolean) {}

  /** Notes a random draw. */
  drew(bytes: Uint8Array): void {
    if (this.mine()) this.drawn.push(bytes);
  }

  /** Takes the place of work on a secret that starts now, and returns how to note its result. */
  working(): ((result: unknown) => void) | undefined {
    if (!this.mine()) return undefined;
    const at = this.outcomes.push(undefined) - 1;
    return (result) => {
      this.outcomes[at] = result;
    };
  }
}

/**
 * The recorded requests under way, of every project's journal: each is handed every random draw and work on a
 * secret, and keeps its own. One wrapper of `entropy.draw` and `secretWork.run` serves them all, so that journals of
 * several projects recording at once never put back another's wrapper when they finish.
 */
const witnesses = new Set<Witness>();
let unwitnessed: { draw: typeof entropy.draw; run: typeof secretWork.run } | undefined;

/** Hands `one` every random draw and work on a secret until the function it returns is called. */
export function witnessing(one: Witness): () => void {
  if (witnesses.size === 0) {
    const { draw } = entropy;
    const { run } = secretWork;
    unwitnessed = { draw, run };
    entropy.draw = (length) => {
      const bytes = draw(length);
      for (const w of witnesses) w.drew(bytes);
      return bytes;
    };
    secretWork.run = (work) => {
      const notes = [...witnesses].map((w) => w.working());
      return run(work).then((result) => {
        for (const note of notes) note?.(result);
        return result;
      });
    };
  }
  witnesses.add(one);
  return () => {
    witnesses.delete(one);
    if (witnesses.size === 0) {
      entropy.draw = unwitnessed!.draw;
      secretWork.run = unwitnessed!.run;
    }
  };
}

/**
 * Until the function it returns is called, hands out what a recorded request read: each random draw takes the bytes
 * it drew the first time, in order (past them, as for an engine that draws more than the one that recorded, fresh
 * ones), and each work on a secret the result it had. Secrets handed out are drawn afresh (the state keeps only what
 * was worked out from them), but in records of format 1 (`legacy`), which drew them with the other random bytes.
 */
export function replaying(random: Uint8Array, outcomes: readonly unknown[], legacy: boolean): () => void {
  const { draw, drawSecret } = entropy;
  const { run } = secretWork;
  let used = 0;
  entropy.draw = (length) => {
    const bytes = used + length <= random.length ? random.slice(used, used + length) : draw(length);
    used += length;
    return bytes;
  };
  if (legacy) entropy.drawSecret = entropy.draw;
  let next = 0;
  secretWork.run = <T>(work: () => Promise<T>) =>
    next < outcomes.length ? Promise.resolve(outcomes[next++] as T) : work();
  return () => {
    entropy.draw = draw;
    entropy.drawSecret = drawSecret;
    secretWork.run = run;
  };
}
