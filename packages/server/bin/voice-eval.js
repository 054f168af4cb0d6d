#!/usr/bin/env node
// Published, the package holds only dist/; in the workspace, run the TypeScript source through tsx
// (there the workspace packages it imports resolve to their sources too).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli.ts', import.meta.url);
if (existsSync(source)) {
  await import('tsx/esm');
  const { main } = await import(source.href);
  await main(process.argv.slice(2));
} else {
  const { main } = await import(new URL('../dist/cli.js', import.meta.url).href);
  await main(process.argv.slice(2));
}
