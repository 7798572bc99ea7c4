/**
 * A JSON Schema (2020-12) check for the keywords `config.schema.json` uses, with Ajv's errors (`allErrors`): the same
 * error objects in the same order as Ajv's compiled code gives them, so the config's messages stay as they were
 * (`test/schema-check.test.ts` compares the two on many invalid configs). The compiled code was 5 KB of every browser
 * bundle (gzip); this is the schema as data (`generated/config-schema.ts`) and this walk over it.
 *
 * Not a general validator: a keyword the schema does not use is ignored, and the test fails when the schema starts
 * using one this does not know.
 */

/** The keywords this check knows (besides annotations such as `default`, `$schema` and `$id`). */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  $ref?: string;
  enum?: readonly unknown[];
  oneOf?: readonly Schema[];
  maximum?: number;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  items?: Schema;
  required?: readonly string[];
  additionalProperties?: boolean;
  properties?: Readonly<Record<string, Schema>>;
  $defs?: Readonly<Record<string, Schema>>;
}

/** An error as Ajv reports it (without `schemaPath`). */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

const isObject = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && !Array.isArray(data);
const isNumber = (data: unknown): data is number => typeof data === 'number' && Number.isFinite(data);

const IS_TYPE: Record<NonNullable<Schema['type']>, (data: unknown) => boolean> = {
  object: isObject,
  array: Array.isArray,
  string: (data) => typeof data === 'string',
  integer: Number.isInteger,
  boolean: (data) => typeof data === 'boolean',
};

// Ajv checks a type where its keywords are (in the `else` of their group) when the schema has keywords of that type's
// group; otherwise before every keyword.
const GROUP_KEYWORDS: Partial<Record<NonNullable<Schema['type']>, (keyof Schema)[]>> = {
  object: ['required', 'additionalProperties', 'properties'],
  array: ['maxItems', 'minItems', 'uniqueItems', 'items'],
  string: ['maxLength', 'minLength', 'pattern'],
};

/** Ajv's length of a string: code points. */
const lengthOf = (text: string) => [...text].length;

/**
 * The errors of `data` against `root`, in Ajv's order; empty when it is valid.
 *
 * @example
 * checkSchema(schema, { maxUploadBytes: 0 }); // [{ instancePath: '/maxUploadBytes', keyword: 'minimum', ... }, ...]
 */
export function checkSchema(root: Schema, data: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  const patterns = new Map<string, RegExp>();

  const check = (schema: Schema, data: unknown, path: string): void => {
    const fail = (keyword: string, params: Record<string, unknown>, message: string, at = path) =>
      errors.push({ instancePath: at, keyword, params, message });
    const { type } = schema;
    const typeError = () => fail('type', { type }, `must be ${type}`);
    const typeFirst = type !== undefined && !GROUP_KEYWORDS[type]?.some((keyword) => schema[keyword] !== undefined);
    if (typeFirst && !IS_TYPE[type](data)) typeError();

    // Keywords of any type: $ref, enum, oneOf.
    if (schema.$ref !== undefined) {
      const ref = schema.$ref === '#' ? root : root.$defs![schema.$ref.slice('#/$defs/'.length)]!;
      check(ref, data, path);
    }
    if (schema.enum && !schema.enum.includes(data))
      fail('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');
    if (schema.oneOf) {
      const before = errors.length;
      let passing: number | number[] | null = null;
      schema.oneOf.forEach((branch, i) => {
        const count = errors.length;
        check(branch, data, path);
        if (errors.length === count) passing = passing === null ? i : [...[passing].flat(), i];
      });
      if (typeof passing === 'number') errors.length = before;
      else fail('oneOf', { passingSchemas: passing }, 'must match exactly one schema in oneOf');
    }

    // Numbers.
    if (isNumber(data)) {
      if (schema.maximum !== undefined && data > schema.maximum)
        fail('maximum', { comparison: '<=', limit: schema.maximum }, `must be <= ${schema.maximum}`);
      if (schema.minimum !== undefined && data < schema.minimum)
        fail('minimum', { comparison: '>=', limit: schema.minimum }, `must be >= ${schema.minimum}`);
    }

    // Strings.
    if (typeof data === 'string') {
      if (schema.maxLength !== undefined && lengthOf(data) > schema.maxLength)
        fail('maxLength', { limit: schema.maxLength }, `must NOT have more than ${schema.maxLength} characters`);
      if (schema.minLength !== undefined && lengthOf(data) < schema.minLength)
        fail('minLength', { limit: schema.minLength }, `must NOT have fewer than ${schema.minLength} characters`);
      if (schema.pattern !== undefined) {
        const { pattern } = schema;
        if (!patterns.has(pattern)) patterns.set(pattern, new RegExp(pattern, 'u'));
        if (!patterns.get(pattern)!.test(data)) fail('pattern', { pattern }, `must match pattern "${pattern}"`);
      }
    } else if (type === 'string' && !typeFirst) typeError();

    // Arrays.
    if (Array.isArray(data)) {
      if (schema.maxItems !== undefined && data.length > schema.maxItems)
        fail('maxItems', { limit: schema.maxItems }, `must NOT have more than ${schema.maxItems} items`);
      if (schema.minItems !== undefined && data.length < schema.minItems)
        fail('minItems', { limit: schema.minItems }, `must NOT have fewer than ${schema.minItems} items`);
      if (schema.uniqueItems) uniqueItems(data, schema.items?.type, fail);
      if (schema.items) for (const [i, item] of data.entries()) check(schema.items, item, `${path}/${i}`);
    } else if (type === 'array' && !typeFirst) typeError();

    // Objects.
    if (isObject(data)) {
      for (const name of schema.required ?? [])
        if (data[name] === undefined)
          fail('required', { missingProperty: name }, `must have required property '${name}'`);
      const properties = schema.properties ?? {};
      if (schema.additionalProperties === false)
        for (const name in data)
          if (!Object.hasOwn(properties, name))
            fail('additionalProperties', { additionalProperty: name }, 'must NOT have additional properties');
      for (const [name, property] of Object.entries(properties))
        if (data[name] !== undefined) check(property, data[name], `${path}/${pointer(name)}`);
    } else if (type === 'object' && !typeFirst) typeError();
  };

  check(root, data, '');
  return errors;
}

/** A property name as a JSON Pointer segment. */
const pointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Ajv's `uniqueItems` for items of one scalar type: from the last item down, the first repeated one is reported with
 * the index it was seen at (j) and its own (i).
 */
function uniqueItems(
  data: unknown[],
  itemType: Schema['type'],
  fail: (keyword: string, params: Record<string, unknown>, message: string) => void,
): void {
  const seen = new Map<unknown, number>();
  for (let i = data.length - 1; i >= 0; i--) {
    const item = data[i];
    if (itemType !== undefined && !IS_TYPE[itemType](item)) continue;
    const j = seen.get(item);
    if (j !== undefined) {
      fail('uniqueItems', { i, j }, `must NOT have duplicate items (items ## ${j} and ${i} are identical)`);
      return;
    }
    seen.set(item, i);
  }
}
