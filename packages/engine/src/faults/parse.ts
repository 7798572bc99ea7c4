import type { Config } from '../config.js';
import { ErrorCode, badRequest } from '../shared/errors.js';
import { patternProblem } from '../shared/http/path-pattern.js';
import type { FaultSpec } from './fault.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const KEYS = ['method', 'path', 'status', 'code', 'error', 'network', 'delayMs', 'times', 'probability', 'seed'];

const invalid = (message: string) => badRequest(ErrorCode.VALIDATION_FAILED, message);

function integer(body: Record<string, unknown>, key: string, min: number, max: number, why = ''): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    throw invalid(`"${key}" must be a whole number from ${min} to ${max}${why}`);
  return value as number;
}

/**
 * The fault a `POST /__admin/faults` body describes (400, code 142, naming the key, for anything else). A fault does
 * at least one thing: answers a `status`, drops the connection (`network: "reset"`) or delays (`delayMs`).
 */
export function parseFault(body: Record<string, unknown>, config: Config): FaultSpec {
  const unknown = Object.keys(body).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) throw invalid(`unknown key "${unknown}"; a fault takes ${KEYS.join(', ')}`);
  const { method, path, error, network, probability } = body;
  if (typeof path !== 'string') throw invalid('"path" is required: a path or a pattern such as /auth/users/{userId}');
  const problem = patternProblem(path);
  if (problem) throw invalid(`"path" ${problem}`);
  if (/^\/__(admin|health)(\/|$)/.test(path)) throw invalid('"path": the admin API and /__health cannot be faulted');
  const spec: FaultSpec = { path };
  if (method !== undefined) {
    if (typeof method !== 'string' || !METHODS.includes(method.toUpperCase()))
      throw invalid(`"method" must be one of ${METHODS.join(', ')}`);
    spec.method = method.toUpperCase();
  }
  const status = integer(body, 'status', 400, 599, ' (an error status)');
  const code = integer(body, 'code', 0, 999_999);
  if (error !== undefined && (typeof error !== 'string' || error.length > 1000))
    throw invalid('"error" must be a string of at most 1000 characters');
  if (status === undefined && (code !== undefined || error !== undefined))
    throw invalid('"code" and "error" make the body of an injected "status": give the status too');
  if (network !== undefined && network !== 'reset') throw invalid('"network" must be "reset"');
  if (network !== undefined && status !== undefined)
    throw invalid('"status" and "network" exclude each other: a dropped connection has no status');
  const delayMs = integer(body, 'delayMs', 0, config.maxFaultDelayMs, ' (maxFaultDelayMs)');
  if (status === undefined && network === undefined && !delayMs)
    throw invalid('a fault needs "status", "network" or a "delayMs" above 0');
  const times = integer(body, 'times', 1, Number.MAX_SAFE_INTEGER);
  if (probability !== undefined && (typeof probability !== 'number' || !(probability > 0 && probability <= 1)))
    throw invalid('"probability" must be a number above 0, at most 1');
  const seed = integer(body, 'seed', 0, 0xffffffff);
  if (seed !== undefined && probability === undefined)
    throw invalid('"seed" starts the draws of "probability": give it too');
  return {
    ...spec,
    ...(status !== undefined && { status }),
    ...(code !== undefined && { code }),
    ...(error !== undefined && { error: error as string }),
    ...(network !== undefined && { network }),
    ...(delayMs !== undefined && { delayMs }),
    ...(times !== undefined && { times }),
    ...(probability !== undefined && { probability, seed }),
  };
}
