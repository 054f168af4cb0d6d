import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/testing/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: {
    entry: ['src/index.ts', 'src/testing/index.ts'],
    // PGlite's declarations (`DbOptions.instance`) use the Emscripten globals without referencing
    // them: pull in @types/emscripten (a dependency) for consumers whose tsconfig lists `types`.
    banner: '/// <reference types="emscripten" />',
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
