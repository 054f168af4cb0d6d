/**
 * The manifest is the same for every package manager: `exports` point at `dist` (ESM and CJS, each
 * with its declarations) and at `src` only through the workspace's `@voice-eval/source` condition,
 * with no `workspace:` range and no `publishConfig` to rewrite on pack. `.ci/consumer-check.sh`
 * packs, installs and type-checks the result in CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import tsup from '../tsup.config.js';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const pkg = read(join(SDK, 'package.json'));
const contractPkg = read(join(SDK, '../../contract/package.json'));
const entries = Object.keys((tsup as { entry: Record<string, string> }).entry);

const conditional = (name: string) => ({
  import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
  require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
});

describe('@voice-eval/sdk package.json', () => {
  it('exports dist for ESM and CJS, src only under the @voice-eval/source condition', () => {
    expect(pkg.exports).toEqual({
      '.': { '@voice-eval/source': './src/index.ts', ...conditional('index') },
      './msw': { '@voice-eval/source': './src/msw/index.ts', ...conditional('msw/index') },
      './package.json': './package.json',
    });
    for (const entry of Object.values<Record<string, string>>(pkg.exports).filter(
      (e) => typeof e === 'object',
    )) {
      expect(Object.keys(entry)[0]).toBe('@voice-eval/source');
      expect(existsSync(join(SDK, entry['@voice-eval/source']!))).toBe(true);
    }
  });

  it('builds exactly the entries it exports', () => {
    expect(entries.sort()).toEqual(['index', 'msw/index']);
  });

  it('points the legacy fields at the same files', () => {
    expect(pkg).toMatchObject({
      main: './dist/index.cjs',
      module: './dist/index.js',
      types: './dist/index.d.ts',
    });
  });

  it('needs no rewriting on pack: no publishConfig, no workspace: ranges', () => {
    expect(pkg).not.toHaveProperty('publishConfig');
    const ranges = { ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies };
    for (const [name, range] of Object.entries(ranges)) expect(range, name).not.toMatch(/^workspace:/);
  });

  it('depends on the contract of its own version (they are released together)', () => {
    expect(pkg.dependencies['@voice-eval/contract']).toBe(contractPkg.version);
    expect(pkg.version).toBe(contractPkg.version);
  });

  it('ships dist only, side-effect free, MIT with a LICENSE file', () => {
    expect(pkg.files).toEqual(['dist']);
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(SDK, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('keeps msw an optional peer', () => {
    expect(pkg.peerDependencies.msw).toBeTruthy();
    expect(pkg.peerDependenciesMeta.msw).toEqual({ optional: true });
    expect(pkg.dependencies).not.toHaveProperty('msw');
  });
});
