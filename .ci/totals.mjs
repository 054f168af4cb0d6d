// Sums the test reports in a folder (written by .ci/results-reporter.mjs) and prints
// `tests: N passed, M failed[, K skipped]`. Before it, the 15 slowest test files with their wall
// time and project, so the cost of CI can be read where it is spent.
// Each failed test (or file that failed to load, or error outside a test) is named on a line before
// the totals, with its message (an assertion's diff included, at most 16 lines), so a failure can
// be read from the tail of the CI output.
// Exits 1 when any failed or when none ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const files = [];
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
const ansi = /\x1b\[[0-9;]*m/g;
/** The first message, without colours, at most 16 lines. */
const summary = (messages) =>
  (messages[0] ?? '')
    .replace(ansi, '')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 16)
    .map((l) => l.slice(0, 300))
    .join('\n    ');

for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  for (const module of report.modules) {
    const where = `[${module.project}] ${module.path}`;
    files.push({ where, ms: module.ms, tests: module.tests.length });
    for (const test of module.tests) {
      if (test.state === 'passed') passed += 1;
      else if (test.state === 'failed' || test.state === 'pending') {
        // a test still pending when the run ended did not finish: the run was cut short
        failed += 1;
        failures.push(
          `${where} > ${test.name}: ${summary(test.errors.length ? test.errors : ['did not finish'])}`,
        );
      } else skipped += 1;
    }
    // a file that failed to load, or whose hook failed (its tests then skipped), is a failure
    // that no test reports
    if (module.state === 'failed' && !module.tests.some((t) => t.state === 'failed')) {
      failed += 1;
      failures.push(`${where}: ${summary(module.errors)}`);
    }
  }
  for (const error of report.unhandled) {
    failed += 1;
    failures.push(`unhandled error: ${summary([error])}`);
  }
}
console.log('slowest test files:');
for (const { where, ms, tests } of files.sort((a, b) => b.ms - a.ms).slice(0, 15)) {
  console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${where} (${tests} tests)`);
}
for (const line of failures) console.log(`failed: ${line}`);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
