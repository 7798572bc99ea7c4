import { ErrorCode, badRequest } from '../../../shared/errors.js';
import { COST, type QueryBudget } from '../query/budget.js';
import type { SafeRegexOperand } from './clause.js';
import { safeRegex } from './evaluators.js';

/**
 * A `$regex` of a query, compiled once with re2js: linear in the text whatever the pattern, so no pattern can
 * backtrack for ever. Linear is not free, so the query's budget pays for the pattern's compilation by its length and
 * for every text it tests by the text's length: neither a huge pattern nor huge stored strings outrun the budget.
 */
export class RegexOperand implements SafeRegexOperand {
  readonly #re: { test(text: string): boolean };
  readonly #budget: QueryBudget;

  /** Compiles `pattern` with the `$options` flags `i`, `m` and `s`; 400 code 102 when the pattern is not valid RE2. */
  constructor(pattern: string, options: string, budget: QueryBudget) {
    budget.charge(COST.compileRegex + pattern.length * COST.regexPatternChar);
    const RE2 = safeRegex();
    const bits: Record<string, number> = { i: RE2.CASE_INSENSITIVE, m: RE2.MULTILINE, s: RE2.DOTALL };
    const flags = [...options].reduce((all, flag) => all | bits[flag]!, 0);
    try {
      this.#re = RE2.compile(pattern, flags);
    } catch (error) {
      throw badRequest(ErrorCode.INVALID_QUERY, `$regex: ${(error as Error).message}`);
    }
    this.#budget = budget;
  }

  test(text: string): boolean {
    this.#budget.charge(Math.ceil(text.length / COST.regexTextChars));
    return this.#re.test(text);
  }
}
