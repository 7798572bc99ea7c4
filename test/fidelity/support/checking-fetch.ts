import type { Contract, Operation } from './contract.js';

/** What a checking fetch saw: the operations it matched, and every answer that does not fit the contract. */
export interface ContractCheck {
  fetch: (request: Request) => Promise<Response>;
  /** Operation ids of the requests sent. */
  seen: Set<string>;
  violations: string[];
}

/**
 * A fetch that sends each request on and checks its answer against the operation of `operations` it is for (method
 * and path template; fixed paths before templated ones, as OpenAPI matches them). A request no operation describes is
 * a violation too. Bodies that are not JSON are left to the caller.
 *
 * @example
 * const check = contractCheckingFetch(contract.adminOperations);
 * const admin = createAdminClient({ baseUrl, masterKey, fetch: check.fetch });
 */
export function contractCheckingFetch(contract: Contract, operations: Operation[]): ContractCheck {
  const patterns = operations
    .map((op) => ({ op, pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }))
    .sort((a, b) => a.op.path.split('{').length - b.op.path.split('{').length);
  const seen = new Set<string>();
  const violations: string[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const method = request.method.toLowerCase();
    const op = patterns.find(({ op, pattern }) => op.method === method && pattern.test(pathname))?.op;
    const response = await globalThis.fetch(request);
    if (!op) {
      violations.push(`${request.method} ${pathname}: no operation of the contract`);
      return response;
    }
    seen.add(op.id);
    const type = response.headers.get('content-type');
    if (type?.includes('json')) {
      const problem = contract.checkResponse(op, response.status, type, await response.clone().json());
      if (problem) violations.push(`${request.method} ${pathname}: ${problem}`);
    } else if (!op.statuses.includes(String(response.status))) {
      violations.push(`${request.method} ${pathname}: status ${response.status} is not documented`);
    }
    return response;
  };
  return { fetch, seen, violations };
}
