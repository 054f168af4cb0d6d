// Sums the Vitest JSON reports in a folder and prints `tests: N passed, M failed[, K skipped]`.
// Before it, the 15 slowest test files over every run with their wall time (from each file's start
// and end in the report), so the cost of CI can be read where it is spent.
// Each failed test (or file that failed to load) is named on a line before the totals, with its
// message up to the stack trace (an assertion's diff included, at most 16 lines), so a failure
// can be read from the tail of the CI output.
// Exits 1 when a report is missing tests, when any failed, or when none ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2];
const root = process.cwd();
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const durations = [];
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
const ansi = /\x1b\[[0-9;]*m/g;
/** The message of the first failure, without colours, up to its stack trace. */
const summary = (messages) => {
  const lines = (messages?.[0] ?? '').replace(ansi, '').split('\n');
  const stack = lines.findIndex((l) => /^\s+at /.test(l));
  const kept = (stack === -1 ? lines : lines.slice(0, stack)).filter((l) => l.trim());
  return kept
    .slice(0, 16)
    .map((l) => l.slice(0, 300))
    .join('\n    ');
};

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const run = file.replace(/\.json$/, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults) {
    const path = relative(root, result.name);
    durations.push({
      run,
      path,
      ms: result.endTime - result.startTime,
      tests: result.assertionResults.length,
    });
    // a file that failed to load, or whose hook failed (its tests then skipped), is a failure
    // that no test reports
    if (result.status === 'failed' && !result.assertionResults.some((t) => t.status === 'failed')) {
      failed += 1;
      failures.push(`[${run}] ${path}: ${summary([result.message])}`);
    }
    for (const test of result.assertionResults.filter((t) => t.status === 'failed')) {
      failures.push(`[${run}] ${path} > ${test.fullName}: ${summary(test.failureMessages)}`);
    }
  }
}
const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, 15);
console.log('slowest test files:');
for (const { run, path, ms, tests } of slowest) {
  console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  [${run}] ${path} (${tests} tests)`);
}
for (const line of failures) console.log(`failed: ${line}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
