/**
 * What may import what in the server's shipped code (docs/architecture.md explains the layers).
 * `pnpm depcruise` checks it; CI runs it after the lint. Paths are relative to the repository root.
 * Tests are not cruised: a test may reach into any layer it tests.
 */
const src = '^packages/server/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'A cycle of imports that run ties its files into one unit: none can be loaded, tested or moved alone (a type-only import back is erased).',
      from: { path: src },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      comment:
        'Modules depend on each other one way: a route that belongs to another module is mounted by app.ts, not imported.',
      scope: 'folder',
      from: { path: `${src}modules/[^/]+$` },
      to: { path: `${src}modules/[^/]+$`, circular: true },
    },
    {
      name: 'src-not-test',
      severity: 'error',
      comment: 'Shipped code never imports test code: the package is built from src/ alone.',
      from: { path: src },
      to: { path: '^packages/server/test/' },
    },
    {
      name: 'kernel-not-upper-layers',
      severity: 'error',
      comment:
        'The kernel (db, dispatch, net, crypto, storage, providers, usage, voice, clustering, stats) knows nothing of the layers built on it: modules, http, workers, commands, ops, the app.',
      from: { path: `${src}(db|dispatch|net|crypto|storage|providers|usage|voice|clustering|stats)/` },
      to: { path: `${src}((modules|http|workers|commands|ops|testing)/|(app|server|cli|index)[.]ts$)` },
    },
    {
      name: 'no-other-modules-repo',
      severity: 'error',
      comment:
        "A module's tables are read and written through its own repo: another module calls its service.",
      from: { path: `${src}modules/([^/]+)/` },
      to: { path: `${src}modules/[^/]+/[a-z-]*repo[.]ts$`, pathNot: `${src}modules/$1/` },
    },
    {
      name: 'doubles-only-in-demo',
      severity: 'error',
      comment:
        "The loopback doubles (testing/) are the demo's and tests' alone: only commands/demo/, which commands/demo.ts loads on demand, imports them, so serve never loads them.",
      from: { path: src, pathNot: `${src}(testing|commands/demo)/` },
      to: { path: `${src}testing/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|[.](test|test-d)[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'packages/server/tsconfig.json') },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@voice-eval/source', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
