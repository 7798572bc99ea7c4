// Every reference in code and docs points to something in the repository: the service's interface document is not
// here, so no "spec N.N" or section number; nor an issue number (its reason belongs in the text; only the headings of
// docs/decisions.md keep one, as history). Paths to docs/ and openapi/ exist, a docs/ anchor names a heading of its
// page, and "the contract's `name`" names an operation, schema or callback of the contract.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const checked = /\.(ts|tsx|mts|cts|js|mjs|cjs|yaml|yml|md|json|html)$/;
const skipped = /(^|\/)(dist|node_modules|generated)\/|package-lock\.json$/;

/** The repository's own text files, tracked or new (never what .gitignore leaves out). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root });
  return listed
    .toString()
    .split('\n')
    .filter((file) => checked.test(file) && !skipped.test(file) && existsSync(join(root, file)));
}

const sectionNumber = /\b(spec|section)s?\s+§?\d/i;
const issueNumber = /\bissues?\s+#?\d/i;

/** The lines of `text` that cite a section number of the interface document or an issue number. */
function pointsNowhere(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const history = file === 'docs/decisions.md' && line.startsWith('#');
    const cites = sectionNumber.test(line) || (!history && issueNumber.test(line));
    return cites ? [`${file}:${index + 1}: ${line.trim()}`] : [];
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (a repeated heading gets `-1`, `-2`, ... as on GitHub). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

const docsPath = /\bdocs\/([\w/-]+\.md)(?:#([\w-]+))?/g;
const contractPath = /\bopenapi\/[\w/.-]+\.(?:yaml|json)\b/g;
const contractName = /the contract's `(\w+)`/g;

/** The names the contract defines: operation ids, schemas, callbacks (every key of its YAML files). */
function contractNames(): Set<string> {
  const names = new Set<string>();
  for (const file of repositoryFiles().filter((f) => /^openapi\/areas\/.*\.yaml$|^openapi\/root\.yaml$/.test(f))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/^\s*(?:operationId:\s*)?([A-Za-z]\w*):?/gm)) if (name) names.add(name);
  }
  return names;
}

/** References in `text` to a docs/ page, a heading, an openapi/ file or a contract name that does not exist. */
function broken(file: string, text: string, names: Set<string>): string[] {
  const found: string[] = [];
  for (const [whole, page, anchor] of text.matchAll(docsPath)) {
    const path = join(root, 'docs', page ?? '');
    if (!existsSync(path)) found.push(`${file}: ${whole} (no such file)`);
    else if (anchor && !anchors(readFileSync(path, 'utf8')).has(anchor)) found.push(`${file}: ${whole} (no heading)`);
  }
  for (const [whole] of text.matchAll(contractPath)) {
    if (!existsSync(join(root, whole))) found.push(`${file}: ${whole} (no such file)`);
  }
  for (const [whole, name] of text.matchAll(contractName)) {
    if (!names.has(name ?? '')) found.push(`${file}: ${whole} (not in the contract)`);
  }
  return found;
}

describe('references', () => {
  const files = repositoryFiles();
  const self = 'test/references.test.ts';

  it('finds the citations it is meant to refuse, and keeps the history of decisions.md', () => {
    expect(pointsNowhere('a.ts', `// (spec 4.2) and Spec 7\n// ok\n// since issue 24`)).toHaveLength(2);
    expect(pointsNowhere('a.ts', '// section 7 of it')).toHaveLength(1);
    expect(pointsNowhere('docs/decisions.md', `## Streaming files (issue 19)`)).toEqual([]);
    expect(pointsNowhere('docs/decisions.md', `- since issue 19`)).toHaveLength(1);
  });

  it('cites no section of the interface document and no issue number', () => {
    expect(files.length).toBeGreaterThan(500);
    const found = files.filter((f) => f !== self).flatMap((f) => pointsNowhere(f, readFileSync(join(root, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('names only docs/ pages and headings, openapi/ files and contract names that exist', () => {
    const names = contractNames();
    expect(broken('a.ts', "// docs/nowhere.md, docs/errors.md#nowhere, the contract's `nowhere`", names)).toHaveLength(
      3,
    );
    expect(broken('a.ts', "// docs/users.md#tokens, openapi/root.yaml, the contract's `queryRows`", names)).toEqual([]);
    const found = files.filter((f) => f !== self).flatMap((f) => broken(f, readFileSync(join(root, f), 'utf8'), names));
    expect(found).toEqual([]);
  });
});
