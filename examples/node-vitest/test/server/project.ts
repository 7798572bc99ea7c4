// A project of its own for the calling test file, on the server of global-setup.ts.
import { createTestProject, type TestProject } from '@basekit/mock-server/testing';
import { afterAll, beforeAll, inject } from 'vitest';

/** The game this app needs in its project: the event it sends and the leaderboard it reads. */
const GAME = {
  events: [{ name: 'match_end', fields: ['score'] }],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

/**
 * Creates a project for this test file before its tests and deletes it after them; call at the top of the file.
 * The returned function gives the project once `beforeAll` has run.
 */
export function useTestProject(): () => TestProject {
  let project: TestProject | undefined;
  beforeAll(async () => {
    project = await createTestProject({ ...inject('basekitServer'), config: GAME });
  });
  afterAll(() => project?.delete());
  return () => {
    if (!project) throw new Error('the test project is created in beforeAll');
    return project;
  };
}
