import type { FuzzResult, Violation } from './fuzzer.js';

/** A readable account of a fuzz run: figures, then each kind of violation per operation with one example. */
export function summarize(result: FuzzResult): string {
  const groups = new Map<string, Violation[]>();
  for (const v of result.violations) {
    const key = `${v.kind} — ${v.operation}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const lines = [
    `fuzz: ${result.cases} cases, ${result.succeeded} answered 2xx, ${Object.keys(result.perOperation).length} operations, ${result.violations.length} violations`,
    `  statuses: ${Object.entries(result.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ')}`,
  ];
  for (const [key, list] of groups)
    lines.push(`  ${list.length}× ${key}\n    request:  ${list[0]!.request}\n    response: ${list[0]!.response}`);
  return lines.join('\n');
}
