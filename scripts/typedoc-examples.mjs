// A typedoc plugin: every export of the documented packages shows an example (an `@example` on it or on one of its
// signatures). One without is a validation warning, so `npm run docs` (warnings as errors) fails on it.
import { Application, ReflectionKind } from 'typedoc';

/** The comments that may carry an export's example: its own and those of its (call or construct) signatures. */
function commentsOf(reflection) {
  const signatures = [
    ...(reflection.signatures ?? []),
    ...(reflection.type?.type === 'reflection' ? (reflection.type.declaration.signatures ?? []) : []),
  ];
  return [reflection.comment, ...signatures.map((signature) => signature.comment)];
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    // The exports: the children of each module (of the project itself when it documents one entry point).
    for (const exported of Object.values(project.reflections)) {
      if (!exported.parent?.kindOf(ReflectionKind.Project | ReflectionKind.Module)) continue;
      // A module holds exports; a re-export's original is checked where it is declared.
      if (exported.kindOf(ReflectionKind.Module | ReflectionKind.Reference)) continue;
      if (!commentsOf(exported).some((comment) => comment?.getTag('@example')))
        app.logger.validationWarning(`${exported.getFriendlyFullName()} has no @example`);
    }
  });
}
