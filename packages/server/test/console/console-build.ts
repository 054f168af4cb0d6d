import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CONSOLE = fileURLToPath(new URL('../../../../console/', import.meta.url));

const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(`${entry.parentPath}/${entry.name}`).mtimeMs),
  );

/**
 * The console's build, made now when it is missing or older than its sources (`pnpm test` does
 * not build first; the server serves `console/dist` when run from its sources).
 */
export const ensureConsoleBuild = async (): Promise<void> => {
  const page = `${CONSOLE}dist/index.html`;
  const inputs = Math.max(newest(`${CONSOLE}src`), statSync(`${CONSOLE}index.html`).mtimeMs);
  if (existsSync(page) && statSync(page).mtimeMs >= inputs) return;
  const { build } = await import('vite');
  await build({ root: CONSOLE, configFile: `${CONSOLE}vite.config.ts`, logLevel: 'warn' });
};
