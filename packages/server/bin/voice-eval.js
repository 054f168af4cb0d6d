#!/usr/bin/env node
// Published, the package holds only dist/; in the workspace, run the TypeScript source through tsx,
// with the workspace packages it imports resolved to their sources too (as
// `--conditions=@voice-eval/source` would do).
import { existsSync } from 'node:fs';
import { register } from 'node:module';

const source = new URL('../src/cli.ts', import.meta.url);
if (existsSync(source)) {
  const hook = `export const resolve = (specifier, context, next) =>
    next(specifier, { ...context, conditions: [...context.conditions, '@voice-eval/source'] });`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  await import('tsx/esm');
  const { main } = await import(source.href);
  await main(process.argv.slice(2));
} else {
  const { main } = await import(new URL('../dist/cli.js', import.meta.url).href);
  await main(process.argv.slice(2));
}
