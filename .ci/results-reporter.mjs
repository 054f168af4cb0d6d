// A Vitest reporter for CI: writes each test file's project, path, wall time and tests (with each
// one's duration and the message of each failure) to the JSON file named by CI_RESULTS_FILE, for
// .ci/totals.mjs. Vitest's own JSON report leaves out the project, and one run holds the same file
// twice (on PGlite and on Postgres).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** An error's message and, for an assertion, its diff. */
const describe = (error) => [error.message, error.diff].filter(Boolean).join('\n');

export default class ResultsReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const file = process.env.CI_RESULTS_FILE;
    if (!file) return;
    const modules = testModules.map((module) => {
      const d = module.diagnostic();
      return {
        project: module.project.name,
        path: relative(process.cwd(), module.moduleId),
        // from the start of its environment to its last test: the file's wall time in its worker
        ms: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
        state: module.state(),
        errors: module.errors().map(describe),
        tests: [...module.children.allTests()].map((test) => {
          const result = test.result();
          return {
            name: test.fullName,
            state: result.state,
            ms: test.diagnostic()?.duration ?? 0,
            errors: (result.errors ?? []).map(describe),
          };
        }),
      };
    });
    writeFileSync(file, JSON.stringify({ modules, unhandled: unhandledErrors.map(describe) }));
  }
}
