#!/usr/bin/env node
// Part of the server's build: copies the console's build (console/dist, built before this package
// by `pnpm build`) into dist/console, which the published package serves at /console.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../../../console/dist/', import.meta.url));
const to = fileURLToPath(new URL('../dist/console/', import.meta.url));
if (!existsSync(`${from}index.html`)) {
  process.stderr.write(`copy-console: no console build at ${from}; run pnpm build at the workspace root\n`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
