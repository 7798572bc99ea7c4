// The CI example (docs/ci/github-actions.yml) as its tests need it: the job's environment and steps, and the
// commands of the steps that build and start the server's image.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
}

export interface CiWorkflow {
  env: Record<string, string>;
  steps: Step[];
  /** The commands of the step whose name matches. */
  run(name: RegExp): string;
}

export function ciWorkflow(): CiWorkflow {
  const text = readFileSync(fileURLToPath(new URL('../../docs/ci/github-actions.yml', import.meta.url)), 'utf8');
  const { jobs } = parse(text) as { jobs: { test: { env: Record<string, string>; steps: Step[] } } };
  const { env, steps } = jobs.test;
  return {
    env,
    steps,
    run: (name) => {
      const step = steps.find((candidate) => name.test(candidate.name ?? ''));
      if (!step?.run) throw new Error(`the CI example has no step named ${name}`);
      return step.run;
    },
  };
}
