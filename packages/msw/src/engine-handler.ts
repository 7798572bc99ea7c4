import { HttpHandler, type HttpRequestParsedResult, type ResponseResolutionContext } from 'msw';

/**
 * Answers a request, or undefined when the engine serves no such operation; or, for those, why:
 * `{ unknownOperation }`, the engine's 404 message naming the closest operations (see `explainUnhandled`).
 */
type Serve = (request: Request) => Promise<Response | { unknownOperation: string } | undefined>;

/** Why the engine serves no operation for requests its handlers left unclaimed, for msw's `onUnhandledRequest`. */
const unknownOperations = new WeakMap<Request, string>();

/** Why no engine handler claimed `request` (msw hands the same object to `onUnhandledRequest`), if one was asked. */
export const unknownOperation = (request: Request): string | undefined => unknownOperations.get(request);

interface EngineParsedResult extends HttpRequestParsedResult {
  /** The engine's answer, present when the URL matched and the engine serves the operation. */
  response?: Response;
}

/**
 * An msw handler for every method under `<base>/*` that hands the request to the engine. The engine runs while msw
 * matches the request (in `parse`), so that a request it does not serve (unknown route) is not claimed at all and
 * goes on to the next handler or to `onUnhandledRequest`, as for any msw handler that does not match.
 * Because of that, `handler.test(request)` runs the engine too.
 *
 * @example
 * // What createHandlers makes, one per base URL; a handler of your own over another engine:
 * const engine = createEngine();
 * const handler = new EngineHandler('https://api.example.test', async (request) => engine.fetch(request));
 */
export class EngineHandler extends HttpHandler {
  constructor(
    base: string,
    private readonly serve: Serve,
  ) {
    // The resolver's arguments carry the engine's answer (see `extendResolverArgs`); msw types them as params/cookies only.
    super(/.+/, `${base}/*`, (info) => (info as unknown as { response: Response }).response);
  }

  /** Matches a request under the base only when the engine serves its operation; the engine's answer comes with it. */
  override async parse(args: {
    request: Request;
    resolutionContext?: ResponseResolutionContext;
  }): Promise<EngineParsedResult> {
    const parsed = await super.parse(args);
    if (!parsed.match.matches) return parsed;
    // A clone: msw hands the same request to later handlers when this one does not claim it.
    const answer = await this.serve(args.request.clone());
    if (answer && !('unknownOperation' in answer)) return { ...parsed, response: answer };
    if (answer) unknownOperations.set(args.request, answer.unknownOperation);
    return { ...parsed, match: { ...parsed.match, matches: false } };
  }

  /** Hands the engine's answer (from `parse`) to the resolver, which returns it. */
  protected override extendResolverArgs(args: { request: Request; parsedResult: EngineParsedResult }) {
    return { ...super.extendResolverArgs(args), response: args.parsedResult.response };
  }
}
