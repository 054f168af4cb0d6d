import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'msw/index': 'src/msw/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // ky is ESM-only; bundling it lets `require('@voice-eval/sdk')` work on every Node 20 release.
  noExternal: ['ky'],
});
