import { ensureConsoleBuild } from './console-build.js';

/** Vitest global setup of the projects that serve the console: its build, made once when stale. */
export default async function setup(): Promise<void> {
  await ensureConsoleBuild();
}
