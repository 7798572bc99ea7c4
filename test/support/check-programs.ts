// The first step of `npm test`: when a program the tests drive is missing, stop at once with one message that names
// every missing program and how to get it, instead of failing a hundred tests minutes later.
import { missingPrograms, missingProgramsReport } from './programs.js';

const missing = missingPrograms();
if (missing.length > 0) {
  console.error(missingProgramsReport(missing));
  process.exitCode = 1;
}
