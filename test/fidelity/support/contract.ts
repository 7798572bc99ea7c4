import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/** The bundled contract, exactly as Prism reads it (`node openapi/bundle.mjs` writes it). */
export const BUNDLE_PATH = new URL('../../../openapi/dist/basekit.yaml', import.meta.url);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Json;
  /** Values the contract shows for it (`example`, `examples`). */
  examples: unknown[];
}

export interface BodyContent {
  mediaType: string;
  schema: Json;
  /** Property names the schema declares (the fields a fuzzer mutates even when no example carries them). */
  properties: string[];
  examples: unknown[];
}

/** The tag of the admin API's operations. */
const ADMIN_TAG = 'admin';

/** One operation of the contract, with every `$ref` of its parameters and bodies resolved. */
export interface Operation {
  id: string;
  tags: string[];
  method: (typeof METHODS)[number];
  /** The path template, `/auth/users/{userId}`. */
  path: string;
  parameters: Parameter[];
  /** Alternatives of security scheme names (any one set must be met). */
  security: string[][];
  body?: { required: boolean; contents: BodyContent[] };
  /** Documented status codes. */
  statuses: string[];
  /** The documented responses by status, each `$ref` resolved. */
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

export interface Contract {
  doc: Json;
  /** The service's operations: every one but the admin API's, which the fidelity checks against the spec leave out. */
  operations: Operation[];
  /** The admin API's operations (tag `admin`): what tests do to the reference server, which the real service lacks. */
  adminOperations: Operation[];
  /** Header name of each apiKey security scheme, `authenticationId` -> `X-Service-Authentication-Id`. */
  headerOf: Record<string, string>;
  /** The contract's verdict on a request body (form fields as strings, files as any string): undefined when it fits. */
  checkRequestBody(op: Operation, mediaType: string, body: unknown): string | undefined;
  /** The contract's verdict on a response: undefined when it fits, else why not. */
  checkResponse(op: Operation, status: number, contentType: string | null, body: unknown): string | undefined;
  /** The verdict of one component schema (`AdminRequestSummary`) on a value: undefined when it fits. */
  checkSchema(name: string, value: unknown): string | undefined;
}

function examplesOf(node: Json): unknown[] {
  if ('example' in node) return [node['example']];
  const examples = node['examples'];
  if (Array.isArray(examples)) return examples;
  if (examples && typeof examples === 'object')
    return Object.values(examples as Record<string, { value: unknown }>).map((e) => e.value);
  return [];
}

/** Loads the bundled contract and prepares a response validator (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). */
export function loadContract(): Contract {
  const doc = parse(readFileSync(BUNDLE_PATH, 'utf8')) as Json;
  const resolve = <T>(node: unknown): T => {
    let current = node as Json;
    while (current && typeof current['$ref'] === 'string') {
      current = (current['$ref'] as string)
        .slice(2)
        .split('/')
        .reduce<Json>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')] as Json, doc);
    }
    return current as T;
  };

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: 'basekit.json' });
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `basekit.json#${pointer}` })));
    return validate;
  };
  const pointerToken = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(doc['paths'] as Json)) {
    const item = rawItem as Json;
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = [...((item['parameters'] as unknown[]) ?? []), ...((op['parameters'] as unknown[]) ?? [])].map(
        (p) => {
          const param = resolve<Json>(p);
          const schema = resolve<Json>(param['schema'] ?? {});
          return {
            name: param['name'] as string,
            in: param['in'] as Parameter['in'],
            required: param['required'] === true,
            schema,
            examples: [...examplesOf(param), ...examplesOf(schema)],
          };
        },
      );
      const requestBody = op['requestBody'] ? resolve<Json>(op['requestBody']) : undefined;
      const body = requestBody && {
        required: requestBody['required'] === true,
        contents: Object.entries(requestBody['content'] as Json).map(([mediaType, raw]) => {
          const content = raw as Json;
          const schema = resolve<Json>(content['schema'] ?? {});
          return {
            mediaType,
            schema,
            properties: Object.keys((schema['properties'] as Json | undefined) ?? {}),
            examples: examplesOf(content),
          };
        }),
      };
      const security = ((op['security'] ?? doc['security'] ?? []) as Record<string, unknown>[]).map((alternative) =>
        Object.keys(alternative),
      );
      operations.push({
        id: op['operationId'] as string,
        tags: (op['tags'] as string[] | undefined) ?? [],
        method,
        path,
        parameters,
        security,
        ...(body ? { body } : {}),
        statuses: Object.keys(op['responses'] as Json),
        responses: Object.fromEntries(
          Object.entries(op['responses'] as Json).map(([status, response]) => [status, resolve(response)]),
        ),
      });
    }
  }

  const headerOf: Record<string, string> = {};
  for (const [name, scheme] of Object.entries(((doc['components'] as Json)['securitySchemes'] as Json) ?? {})) {
    const s = scheme as Json;
    if (s['type'] === 'apiKey' && s['in'] === 'header') headerOf[name] = s['name'] as string;
  }

  function checkResponse(op: Operation, status: number, contentType: string | null, body: unknown): string | undefined {
    const key = op.statuses.includes(String(status))
      ? String(status)
      : op.statuses.includes('default')
        ? 'default'
        : undefined;
    if (!key) return `status ${status} is not documented (documented: ${op.statuses.join(', ')})`;
    // A response is inline or a `$ref` to components/responses: point the validator at wherever it really is.
    const raw = ((((doc['paths'] as Json)[op.path] as Json)[op.method] as Json)['responses'] as Json)[key] as Json;
    const responsePointer =
      typeof raw['$ref'] === 'string'
        ? raw['$ref'].slice(1)
        : `/paths/${pointerToken(op.path)}/${op.method}/responses/${key}`;
    const content = resolve<Json>(raw)['content'] as Json | undefined;
    if (!content || !contentType?.includes('application/json')) return undefined; // only JSON bodies are checked here
    const mediaType = Object.keys(content).find((t) => t.includes('json'));
    if (!mediaType) return `a JSON body where the contract documents ${Object.keys(content).join(', ')}`;
    const validate = validatorAt(`${responsePointer}/content/${pointerToken(mediaType)}/schema`);
    if (validate(body)) return undefined;
    return `body does not match the ${key} response schema: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }

  function checkRequestBody(op: Operation, mediaType: string, body: unknown): string | undefined {
    const raw = (((doc['paths'] as Json)[op.path] as Json)[op.method] as Json)['requestBody'] as Json | undefined;
    if (!raw) return 'the contract documents no request body';
    const base =
      typeof raw['$ref'] === 'string'
        ? raw['$ref'].slice(1)
        : `/paths/${pointerToken(op.path)}/${op.method}/requestBody`;
    if (!(mediaType in (resolve<Json>(raw)['content'] as Json))) return `media type ${mediaType} is not documented`;
    const validate = validatorAt(`${base}/content/${pointerToken(mediaType)}/schema`);
    return validate(body)
      ? undefined
      : `request body does not match the schema: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }

  function checkSchema(name: string, value: unknown): string | undefined {
    const validate = validatorAt(`/components/schemas/${escape(name)}`);
    return validate(value) ? undefined : `${name}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }

  const isAdmin = (op: Operation) => op.tags.includes(ADMIN_TAG);
  return {
    doc,
    operations: operations.filter((op) => !isAdmin(op)),
    adminOperations: operations.filter(isAdmin),
    headerOf,
    checkRequestBody,
    checkResponse,
    checkSchema,
  };
}
