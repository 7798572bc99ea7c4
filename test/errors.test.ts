import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';

it('docs/errors.md lists exactly the codes of the catalogue', () => {
  const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const documented = [...doc.matchAll(/^\| (\d+) +\| (\w+) +\|/gm)].map(([, code, name]) => `${code} ${name}`);
  const catalogue = Object.entries(ErrorCode).map(([name, code]) => `${code} ${name}`);
  expect(documented.sort()).toEqual(catalogue.sort());
});
