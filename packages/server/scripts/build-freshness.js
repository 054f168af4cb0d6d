// Whether the server's build is up to date with what it is built from: `start.js` runs the build
// only then, and the benches that measure the build refuse to run otherwise.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const at = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The CLI's bundle, which `pnpm build` writes last of the entries start.js runs. */
export const BUILT_CLI = at('../dist/cli.js');

// what the server's bundle is built from: its sources and the contract's (imported from its dist)
const inputs = [
  { sources: at('../src'), output: BUILT_CLI },
  { sources: at('../../../contract/src'), output: at('../../../contract/dist/index.js') },
];

const newestSource = (dir) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.test(-d)?\.ts$/.test(entry.name)) continue;
    newest = Math.max(newest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return newest;
};

/** The first input whose output is missing or older than its sources, or undefined when the build is fresh. */
export const staleInput = () =>
  inputs.find(
    ({ sources, output }) =>
      existsSync(sources) && (!existsSync(output) || statSync(output).mtimeMs < newestSource(sources)),
  );
