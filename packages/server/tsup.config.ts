import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    cli: 'src/cli.ts',
    // the audio worker thread's script (src/voice/audio/off-loop.ts), beside the chunk that starts it
    'audio-worker': 'src/voice/audio/audio-worker.ts',
  },
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
