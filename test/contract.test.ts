import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error -- plain ESM scripts without type declarations
import { bundle } from '../openapi/bundle.mjs';
// @ts-expect-error -- plain ESM scripts without type declarations
import { generate, output } from '../packages/sdk/scripts/generate.mjs';
// @ts-expect-error -- plain ESM scripts without type declarations
import { compile, output as configValidator } from '../packages/engine/scripts/compile-config.mjs';

/** The operations of the service's interface (its endpoint tables), kept in the repository as data. */
const SPEC_OPERATIONS = new URL('../openapi/spec-operations.json', import.meta.url);
const BUNDLE = new URL('../openapi/dist/basekit.yaml', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `/auth/users/<user_id>/` and `/auth/users/{userId}` both become `/auth/users/{}`. */
const normalize = (path: string) =>
  path
    .replace(/\?.*$/, '')
    .replace(/<[^>]+>|\{[^}]+\}/g, '{}')
    .replace(/(.)\/$/, '$1');

/** Every operation of the interface's endpoint tables, normalized. */
function specOperations(): string[] {
  const { operations } = JSON.parse(readFileSync(SPEC_OPERATIONS, 'utf8')) as {
    operations: { method: string; path: string }[];
  };
  return operations.map(({ method, path }) => `${method} ${normalize(path)}`);
}

function contractOperations(doc: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  const ops = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) if (item[method]) ops.add(`${method.toUpperCase()} ${normalize(path)}`);
  }
  return ops;
}

type MediaType = { example?: unknown; examples?: unknown; schema?: { format?: string } };
type Content = { content?: Record<string, MediaType>; $ref?: string };

/** Follows a local `#/components/...` reference. */
function resolve<T>(doc: Record<string, unknown>, node: T & { $ref?: string }): T {
  if (!node.$ref) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc) as T;
}

/** True when a body or response shows an example (binary downloads are shown by their schema). */
function hasExample(doc: Record<string, unknown>, part: Content): boolean {
  const content = Object.values(resolve(doc, part).content ?? {});
  return (
    content.length === 0 ||
    content.some((c) => c.example !== undefined || c.examples !== undefined || c.schema?.format === 'binary')
  );
}

describe('the contract', () => {
  const doc = parse(readFileSync(BUNDLE, 'utf8'));

  it('describes every operation of the spec', () => {
    const spec = specOperations();
    expect(spec).toHaveLength(38);
    const described = contractOperations(doc);
    expect(spec.filter((op) => !described.has(op))).toEqual([]);
  });

  it('describes the download of a stored file', () => {
    expect(contractOperations(doc).has('GET /{}/{}')).toBe(true);
  });

  it('shows an example of every request body and of every success response', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: Content; responses: Record<string, Content> }>>,
    )) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        if (op.requestBody && !hasExample(doc, op.requestBody)) missing.push(`${method} ${path} request`);
        const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        if (!success.some(([, response]) => hasExample(doc, response))) missing.push(`${method} ${path} response`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is bundled from its sources (run `npm run bundle`)', () => {
    expect(doc).toEqual(bundle());
  });

  it('has generated SDK types that match it (run `npm run generate`)', async () => {
    expect(readFileSync(output, 'utf8')).toBe(await generate());
  });
});

describe('the config schema', () => {
  it("is written into the engine's config check (run `npm run generate`)", () => {
    // A boolean, not the texts: a mismatch would print the whole generated file.
    expect(
      readFileSync(configValidator, 'utf8') === compile(),
      'packages/engine/src/generated/config-schema.ts is out of date',
    ).toBe(true);
  });
});
