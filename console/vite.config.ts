import { defineConfig } from 'vite';

/**
 * The console is served by `@voice-eval/server` under whatever path it is mounted at: every URL in
 * the build is relative (`base: './'`), and the page's `<base href>`, written per request by the
 * server, decides where they point. The workspace packages are read from their sources.
 */
export default defineConfig({
  base: './',
  resolve: { conditions: ['@voice-eval/source'] },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // TanStack's "use client" directives mean nothing in a client-only bundle
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
