// The engine's config check (src/schema-check.ts) against Ajv, which compiled the schema before: on many invalid
// configs (each key given wrong values, nested ones too, keys missing or unknown, and random mixes of those) both give
// the same errors in the same order, so every config message is the same as Ajv's.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM scripts without type declarations
import { strippedSchema } from '../scripts/compile-config.mjs';
import { DEFAULT_CONFIG, resolveConfig } from '../src/config.js';
import { configSchema } from '../src/generated/config-schema.js';
import { checkSchema, type Schema } from '../src/schema-check.js';
import { seeded } from './support/seeded.js';

const ajv = new Ajv2020({ allErrors: true });
const ajvValidate = ajv.compile(strippedSchema());
const ajvErrors = (data: unknown) =>
  ajvValidate(data)
    ? []
    : ajvValidate.errors!.map(({ instancePath, keyword, params, message }) => ({
        instancePath,
        keyword,
        params,
        message,
      }));

const VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1,
  0.5,
  1.5,
  99,
  1023,
  1024,
  65536,
  65535,
  65536.5,
  1e9,
  -1e9,
  Number.POSITIVE_INFINITY,
  Number.NaN,
  '',
  'x',
  'Word',
  'two words',
  'é',
  '😀'.repeat(100),
  'k'.repeat(200),
  'k'.repeat(201),
  'h'.repeat(254),
  '.example.test',
  'a..b',
  'https://example.test',
  'https://example.test/base',
  'ftp://x',
  'never',
  'always',
  'best',
  'asc',
  'sideways',
  [],
  ['Word'],
  ['Word', 'Other'],
  ['bad word'],
  [1],
  ['a', 'a'],
  ['a', 'b', 'a', 'b'],
  [{}],
  [{ event: 'e', field: 'f' }],
  [{ name: 'e', fields: ['f'] }],
  [{ name: 'e', fields: ['f', 'f'], extra: 1 }],
  [{ id: 'b', fields: [{ event: 'e', field: 'f' }], aggregation: 'sum', order: 'asc' }],
  [{ id: '', fields: [], aggregation: 'most', order: 1 }],
  [{ id: 'b', fields: [{ event: 1 }, { field: 'f', other: true }, 3, 4] }],
  [{ ...DEFAULT_CONFIG, authenticationId: 'p2' }],
  [{ authenticationId: 'p3' }],
  [{ ...DEFAULT_CONFIG, maxUploadBytes: 0, services: { users: 'yes' } }],
  {},
  { users: false },
  { users: 1, files: true },
  { 'a/b': 1, 'c~d': 2 },
];

const base = () => structuredClone({ ...DEFAULT_CONFIG }) as Record<string, unknown>;
const keys = Object.keys(configSchema.properties!);

describe("the engine's config check", () => {
  it('accepts what Ajv accepts: the built-in config and full ones', () => {
    const full = {
      ...base(),
      headerWord: ['Service', 'Other'],
      events: [{ name: 'e', fields: ['f', 'g'] }],
      leaderboards: [{ id: 'b', fields: [{ event: 'e', field: 'f' }], aggregation: 'sum', order: 'asc' }],
      projects: [{ ...base(), authenticationId: 'p2', services: { users: false } }],
      allowedHosts: ['.example.test', 'host'],
      publicUrl: 'https://example.test/base',
      fsync: 'always',
    };
    for (const config of [base(), full]) {
      expect(ajvErrors(config)).toEqual([]);
      expect(checkSchema(configSchema, config)).toEqual([]);
    }
  });

  it('gives Ajv’s errors for every key given each wrong value', () => {
    let compared = 0;
    for (const key of [...keys, 'unknownKey', '$schema'])
      for (const value of VALUES) {
        const config = { ...base(), [key]: value };
        if (value === undefined) delete config[key];
        expect(checkSchema(configSchema, config), `${key}: ${String(value)}`).toEqual(ajvErrors(config));
        compared++;
      }
    expect(compared).toBeGreaterThan(3000);
  });

  it('gives Ajv’s errors for random mixes of wrong values, missing keys and wrong roots', () => {
    const { next } = seeded(27);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    for (const root of [null, 1, 'config', [], [DEFAULT_CONFIG]])
      expect(checkSchema(configSchema, root)).toEqual(ajvErrors(root));
    for (let round = 0; round < 3000; round++) {
      const config = base();
      for (let change = 1 + Math.floor(next() * 4); change > 0; change--) {
        const key = pick([...keys, 'unknownKey', 'anotherKey']);
        const value = pick(VALUES);
        if (value === undefined) delete config[key];
        else config[key] = value;
      }
      expect(checkSchema(configSchema, config), JSON.stringify(config)).toEqual(ajvErrors(config));
    }
  });

  it('knows every keyword the schema uses (a new one fails the type check of generated/config-schema.ts)', () => {
    const known = new Set<keyof Schema>([
      'type',
      '$ref',
      'enum',
      'oneOf',
      'maximum',
      'minimum',
      'maxLength',
      'minLength',
      'pattern',
      'maxItems',
      'minItems',
      'uniqueItems',
      'items',
      'required',
      'additionalProperties',
      'properties',
      '$defs',
    ]);
    const used = new Set<string>();
    const walk = (schema: Record<string, unknown>) => {
      for (const [keyword, value] of Object.entries(schema)) {
        used.add(keyword);
        if (keyword === 'properties' || keyword === '$defs')
          for (const sub of Object.values(value as Record<string, Record<string, unknown>>)) walk(sub);
        else if (keyword === 'items') walk(value as Record<string, unknown>);
        else if (keyword === 'oneOf') for (const sub of value as Record<string, unknown>[]) walk(sub);
      }
    };
    walk(strippedSchema());
    expect([...used].filter((keyword) => !known.has(keyword as keyof Schema))).toEqual([]);
  });

  it('keeps the config messages', () => {
    expect(() => resolveConfig({ ...DEFAULT_CONFIG, maxUploadBytes: 0, extra: 1, headerWord: 'two words' })).toThrow(
      'invalid config: (root): unknown key "extra"; maxUploadBytes: must be >= 1; headerWord: must match pattern "^[A-Za-z0-9]{1,40}$"; headerWord: must be array; headerWord: must match exactly one schema in oneOf',
    );
  });
});
