/**
 * Which items may hold a text, found without reading every item: the index a database keeps for `LIKE '%word%'` (a
 * trigram index). Each item is kept under every 3-character piece (trigram) of its texts, and a text shorter than
 * three characters under itself. A word of three characters or more can only be in texts that hold each of its
 * trigrams: the rarest one's items are read, and those the others also hold are answered. A shorter word is in the
 * texts whose pieces contain it: the items of those pieces are answered, each once. Pieces are UTF-16 code units, as
 * `String#includes` compares them, so that no match is ever missed; the caller checks each answer against its own
 * rule (the answers are a superset of the matches, close to them).
 *
 * @example
 * const index = new SubstringIndex<User>();
 * index.add(ann, ['ann', 'ann@example.com']);
 * [...index.candidates('exam')]; // [ann]
 * index.remove(ann, ['ann', 'ann@example.com']); // the same texts it was added with
 */
export class SubstringIndex<T> {
  /** Piece -> the items whose texts hold it. */
  readonly #items = new Map<string, Set<T>>();
  /** A piece of one or two characters -> the longer pieces kept that contain it (a short word's way in). */
  readonly #longer = new Map<string, Set<string>>();

  /** Keeps `item` under the pieces of `texts`. */
  add(item: T, texts: Iterable<string>): void {
    for (const piece of piecesOf(texts)) {
      const items = this.#items.get(piece);
      if (items) items.add(item);
      else {
        this.#items.set(piece, new Set([item]));
        for (const part of partsOf(piece)) this.#longerThan(part).add(piece);
      }
    }
  }

  /** Takes `item` out from under the pieces of `texts`: the texts it was added with. */
  remove(item: T, texts: Iterable<string>): void {
    for (const piece of piecesOf(texts)) {
      const items = this.#items.get(piece);
      if (!items?.delete(item) || items.size > 0) continue;
      this.#items.delete(piece);
      for (const part of partsOf(piece)) {
        const longer = this.#longer.get(part)!;
        longer.delete(piece);
        if (longer.size === 0) this.#longer.delete(part);
      }
    }
  }

  /** Each item whose texts may hold `word` (not empty), once; every item whose texts hold it is among them. */
  *candidates(word: string): Generator<T> {
    if (word.length < PIECE) {
      // In the texts whose pieces contain it: the items of each such piece, each item once.
      const seen = new Set<T>();
      for (const piece of [word, ...(this.#longer.get(word) ?? [])])
        for (const item of this.#items.get(piece) ?? []) if (!seen.has(item) && seen.add(item)) yield item;
      return;
    }
    const sets = [...piecesOf([word])].map((piece) => this.#items.get(piece) ?? new Set<T>());
    sets.sort((a, b) => a.size - b.size);
    const [rarest, ...others] = sets as [Set<T>, ...Set<T>[]];
    for (const item of rarest) if (others.every((items) => items.has(item))) yield item;
  }

  #longerThan(part: string): Set<string> {
    let longer = this.#longer.get(part);
    if (!longer) this.#longer.set(part, (longer = new Set()));
    return longer;
  }
}

/** The length of the pieces a text is cut into. */
const PIECE = 3;

/** The distinct pieces of `texts`: every 3 characters in a row, or a shorter text whole (an empty one gives none). */
function piecesOf(texts: Iterable<string>): Set<string> {
  const pieces = new Set<string>();
  for (const text of texts) {
    if (text.length < PIECE) {
      if (text.length > 0) pieces.add(text);
      continue;
    }
    for (let i = 0; i + PIECE <= text.length; i++) pieces.add(text.slice(i, i + PIECE));
  }
  return pieces;
}

/** The shorter texts inside `piece` (for `abc`: a, b, c, ab, bc). */
function partsOf(piece: string): Set<string> {
  const parts = new Set<string>();
  for (let length = 1; length < piece.length; length++)
    for (let i = 0; i + length <= piece.length; i++) parts.add(piece.slice(i, i + length));
  return parts;
}
