#!/usr/bin/env node
// `pnpm start` and `pnpm demo` (`voice-eval serve` or `voice-eval demo` in the workspace): from the
// built output when `pnpm build` made one that is up to date with the sources, so a start does not
// compile TypeScript; otherwise from the sources through tsx, as bin/voice-eval.js does in the
// workspace. The first argument names the command (`serve` without one); the rest go to it.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { BUILT_CLI as built, staleInput } from './build-freshness.js';

const COMMANDS = ['serve', 'demo'];
const given = process.argv.slice(2);
const args = COMMANDS.includes(given[0]) ? given : ['serve', ...given];
const stale = existsSync(built) ? staleInput() : undefined;
if (existsSync(built) && !stale) {
  const { main } = await import('../dist/cli.js');
  await main(args);
} else {
  if (stale) {
    process.stderr.write(
      `voice-eval: the build is older than ${stale.sources}; running the sources (run pnpm build for a fast start)\n`,
    );
  }
  const hook = `export const resolve = (specifier, context, next) =>
    next(specifier, { ...context, conditions: [...context.conditions, '@voice-eval/source'] });`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  await import('tsx/esm');
  const { main } = await import('../src/cli.ts');
  await main(args);
}
