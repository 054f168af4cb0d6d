#!/usr/bin/env node
// Runs the built CLI when published; in the workspace, runs the TypeScript source through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (existsSync(built)) {
  const { main } = await import(built.href);
  await main(process.argv.slice(2));
} else {
  await import('tsx/esm');
  const { main } = await import(new URL('../src/cli.ts', import.meta.url).href);
  await main(process.argv.slice(2));
}
