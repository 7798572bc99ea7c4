// The CI example (docs/ci/github-actions.yml) as its tests need it: the service container, the job's environment
// and its steps.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export interface CiWorkflow {
  service: { image: string; ports: string[]; options: string };
  env: Record<string, string>;
  steps: Record<string, unknown>[];
}

export function ciWorkflow(): CiWorkflow {
  const text = readFileSync(fileURLToPath(new URL('../../docs/ci/github-actions.yml', import.meta.url)), 'utf8');
  const { jobs } = parse(text) as {
    jobs: {
      test: {
        services: { basekit: CiWorkflow['service'] };
        env: Record<string, string>;
        steps: Record<string, unknown>[];
      };
    };
  };
  return { service: jobs.test.services.basekit, env: jobs.test.env, steps: jobs.test.steps };
}
