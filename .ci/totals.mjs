// Sums the Vitest JSON reports in a folder and prints `tests: N passed, M failed[, K skipped]`.
// Exits 1 when a report is missing tests, when any failed, or when none ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  // a file that failed to load reports no tests but is a failure
  failed += report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
}
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
