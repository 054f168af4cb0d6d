/**
 * The manifest is the same for every package manager: `exports` point at `dist` (ESM and CJS, each
 * with its declarations) and at `src` only through the workspace's `@voice-eval/source` condition,
 * with no `publishConfig` to rewrite on pack. `.ci/consumer-check.sh` packs, installs and
 * type-checks the result in CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import tsup from '../tsup.config.js';

const CONTRACT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(CONTRACT, 'package.json'), 'utf8'));
const entries = (tsup as { entry: string[] }).entry.map((file) => basename(file, '.ts'));

const conditional = (name: string) => ({
  '@voice-eval/source': `./src/${name}.ts`,
  import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
  require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
});

describe('@voice-eval/contract package.json', () => {
  it('exports dist for ESM and CJS, src only under the @voice-eval/source condition', () => {
    expect(pkg.exports).toEqual({
      '.': conditional('index'),
      './openapi': conditional('openapi'),
      './openapi.json': './openapi.json',
      './package.json': './package.json',
    });
    for (const name of entries) expect(existsSync(join(CONTRACT, `src/${name}.ts`))).toBe(true);
  });

  it('builds exactly the entries it exports', () => {
    expect(entries.sort()).toEqual(['index', 'openapi']);
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
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) {
      expect(range, name).not.toMatch(/^workspace:/);
    }
  });

  it('ships dist and openapi.json, side-effect free, MIT with a LICENSE file', () => {
    expect(pkg.files).toEqual(['dist', 'openapi.json']);
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(CONTRACT, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });
});
