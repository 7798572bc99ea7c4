// "Copy as curl": a request as the inspector shows it, as a curl command line. The server masks secrets before they
// leave it (tokens, keys, passwords), so those become shell variables the command says to set; the header word is
// the project's again (the inspector shows the service's canonical `X-Service-…`).
import { shellQuote } from '../../shell.js';
import type { BodyView, ExchangeDetails } from './model.js';

const MASK = '[masked]';
/** Headers curl sets itself, or that describe the connection rather than the request. */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'transfer-encoding',
  'x-replay-of',
]);

/** `authentication-id` -> `Authentication-Id`, as the service's header names are written. */
const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());

/** The shell variable a masked header value becomes. */
const variableOf = (name: string) =>
  name === 'authorization' ? 'TOKEN' : name.endsWith('-authentication-key') ? 'KEY' : 'SECRET';

function bodyArguments(body: BodyView): string[] {
  switch (body.kind) {
    case 'none':
      return [];
    case 'json':
      return [`--data-raw ${shellQuote(JSON.stringify(body.json))}`];
    case 'text':
      return [`--data-raw ${shellQuote(body.text)}`];
    case 'form':
      return Object.entries(body.fields).map(([name, value]) =>
        typeof value === 'string'
          ? `-F ${shellQuote(`${name}=${value}`)}`
          : `-F ${shellQuote(`${name}=@${value.file}${value.type ? `;type=${value.type}` : ''}`)}`,
      );
    case 'omitted':
      return ['--data-binary @BODY_FILE'];
  }
}

/**
 * The request as a curl command for this server (`origin`) in the project's header `word`.
 *
 * @example
 * curlOf(details, 'http://127.0.0.1:3000', 'Service') // "curl -X POST 'http://…/auth/users' -H 'content-type: …' --data-raw '…'"
 */
export function curlOf(details: ExchangeDetails, origin: string, word: string): string {
  const { method, path, request } = details;
  const variables = new Set<string>();
  const headers = Object.entries(request.headers)
    .filter(([name]) => !LEFT_OUT.has(name) && !(request.body.kind === 'form' && name === 'content-type'))
    .map(([name, value]) => {
      const shown = name.startsWith('x-service-') ? `X-${word}-${titleCase(name.slice('x-service-'.length))}` : name;
      if (!value.includes(MASK)) return `-H ${shellQuote(`${shown}: ${value}`)}`;
      const variable = variableOf(name);
      variables.add(variable);
      return `-H "${shown}: ${value.replace(MASK, `$${variable}`)}"`;
    });
  const notes = [
    ...(variables.size ? [`# Secrets were masked by the inspector: set ${[...variables].join(', ')} first.`] : []),
    ...(JSON.stringify(request.body).includes(MASK)
      ? ['# Fields shown as [masked] were secrets: put their values in.']
      : []),
    ...(request.body.kind === 'omitted' ? ['# The body was not kept by the inspector: give it as BODY_FILE.'] : []),
  ];
  const command = [
    `curl${method === 'GET' ? '' : ` -X ${method}`} ${shellQuote(origin + path)}`,
    ...headers,
    ...bodyArguments(request.body),
  ].join(' \\\n  ');
  return [...notes, command].join('\n');
}
