// What the repository's Dockerfile sets up in its final image, read from the file, so the tests run exactly its
// command, environment and health check.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DOCKERFILE = fileURLToPath(new URL('../../Dockerfile', import.meta.url));

export interface Image {
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  healthcheck: string[];
  volume: string;
  user: string;
  workdir: string;
  /** Files copied from the build context: destination -> source. */
  copied: Record<string, string>;
}

/** The instructions of the final stage (after the last FROM), continuation lines joined, comments left out. */
function finalStage(text: string): [string, string][] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const instructions = lines.map((line) => {
    const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    return [keyword!.toUpperCase(), rest!] as [string, string];
  });
  const lastFrom = instructions.map(([keyword]) => keyword).lastIndexOf('FROM');
  return instructions.slice(lastFrom + 1);
}

const only = (instructions: [string, string][], keyword: string) =>
  instructions.filter(([k]) => k === keyword).map(([, rest]) => rest);

/** `ENV A=1 B=$A:x`: each name and its value, `$NAME` of earlier ones left as written. */
function envOf(lines: string[]): Record<string, string> {
  return Object.fromEntries(
    lines.flatMap((line) => line.split(/\s+/).map((pair) => pair.split('=', 2) as [string, string])),
  );
}

export function readDockerfile(file = DOCKERFILE): Image {
  const stage = finalStage(readFileSync(file, 'utf8'));
  const last = (keyword: string) => only(stage, keyword).at(-1) ?? '';
  const copied = only(stage, 'COPY')
    .filter((rest) => !rest.startsWith('--from'))
    .map((rest) => rest.split(/\s+/) as [string, string]);
  const workdir = last('WORKDIR');
  return {
    entrypoint: JSON.parse(last('ENTRYPOINT')) as string[],
    cmd: JSON.parse(last('CMD')) as string[],
    env: envOf(only(stage, 'ENV')),
    healthcheck: JSON.parse(/\bCMD\s+(\[.*\])$/.exec(last('HEALTHCHECK'))![1]!) as string[],
    volume: last('VOLUME'),
    user: last('USER'),
    workdir,
    copied: Object.fromEntries(
      copied.map(([source, destination]) => [
        destination === './' ? `${workdir}/${source.split('/').pop()}` : destination,
        source,
      ]),
    ),
  };
}
