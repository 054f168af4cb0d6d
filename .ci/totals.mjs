// Sums the Vitest JSON reports in a folder and prints `tests: N passed, M failed[, K skipped]`.
// Each failed test (or file that failed to load) is named on a line before the totals, with the
// first line of its message, so a failure can be read from the tail of the CI output.
// Exits 1 when a report is missing tests, when any failed, or when none ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2];
const root = process.cwd();
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const firstLine = (messages) => (messages?.[0] ?? '').split('\n').find((l) => l.trim()) ?? '';

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const run = file.replace(/\.json$/, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults) {
    const path = relative(root, result.name);
    // a file that failed to load reports no tests but is a failure
    if (result.status === 'failed' && result.assertionResults.length === 0) {
      failed += 1;
      failures.push(`[${run}] ${path}: ${firstLine([result.message])}`);
    }
    for (const test of result.assertionResults.filter((t) => t.status === 'failed')) {
      failures.push(`[${run}] ${path} > ${test.fullName}: ${firstLine(test.failureMessages)}`);
    }
  }
}
for (const line of failures) console.log(`failed: ${line.slice(0, 400)}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
