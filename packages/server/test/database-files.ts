import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const TEST_FILE = /\.test\.ts$/;
const LOCAL_IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The TypeScript file a relative ESM specifier (`./x.js`) names, if it exists. */
const resolveLocal = (from: string, specifier: string): string | undefined => {
  const path = resolve(dirname(from), specifier);
  return [path.replace(/\.js$/, '.ts'), `${path}.ts`, join(path, 'index.ts')].find(existsSync);
};

/**
 * The server's test files that open a database, found by following each file's relative imports
 * to `test/setup-db.ts` (the one way a test gets a database). The others (pure functions,
 * parsers, planners) give the same result on either database, so CI runs them once, on PGlite.
 * Paths are relative to the server package, as Vitest's `include` takes them.
 */
export const databaseTestFiles = (packageDir: string): { database: string[]; other: string[] } => {
  const gateway = join(packageDir, 'test/setup-db.ts');
  const importsOf = new Map<string, string[]>();
  const localImports = (file: string) => {
    let found = importsOf.get(file);
    if (!found) {
      found = [...readFileSync(file, 'utf8').matchAll(LOCAL_IMPORT)]
        .map((match) => resolveLocal(file, (match[1] ?? match[2])!))
        .filter((target) => target !== undefined);
      importsOf.set(file, found);
    }
    return found;
  };
  const opensDatabase = (file: string) => {
    const seen = new Set([file]);
    for (const next of seen) {
      if (next === gateway) return true;
      for (const target of localImports(next)) seen.add(target);
    }
    return false;
  };
  const files = ['src', 'test'].flatMap((dir) =>
    readdirSync(join(packageDir, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => TEST_FILE.test(name))
      .map((name) => join(packageDir, dir, name)),
  );
  const database: string[] = [];
  const other: string[] = [];
  for (const file of files.sort()) {
    (opensDatabase(file) ? database : other).push(relative(packageDir, file));
  }
  return { database, other };
};
