#!/usr/bin/env bash
# The published packages as a user gets them. Packs each with npm and with pnpm (the two must give
# the same package), lints the tarballs (publint --strict, @arethetypeswrong/cli), installs them
# with npm into a new project, type-checks a consumer (.ci/consumer) with skipLibCheck false under
# node16 (ESM and CJS) and bundler resolution, and runs ESM and CJS smoke tests.
# Needs built packages (`pnpm build`) and the npm registry. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/voice-eval-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the workspace's source condition must not reach the consumer: it would pick `src`, not `dist`
unset NODE_OPTIONS
bin="$root/node_modules/.bin"
packages=(contract packages/sdk packages/server)
mkdir -p "$work/npm" "$work/pnpm" "$work/app"

say() { printf 'consumer-check: %s\n' "$*"; }
versionOf() { node -p "require(require.resolve('$1/package.json', { paths: ['$root/$2'] })).version"; }

for dir in "${packages[@]}"; do
  (cd "$dir" && npm pack --silent --pack-destination "$work/npm" >/dev/null)
  (cd "$dir" && pnpm pack --pack-destination "$work/pnpm" >/dev/null)
done
node "$root/.ci/compare-packs.mjs" "$work/npm" "$work/pnpm"

for tarball in "$work"/npm/*.tgz; do
  say "publint --strict $(basename "$tarball")"
  "$bin/publint" "$tarball" --strict
  # the server is ESM-only: its `require` and node10 resolutions are not meant to work; its
  # `./bench-internals` export resolves only under the workspace's source condition (null outside)
  args=(--profile node16)
  case "$tarball" in *server*) args=(--profile esm-only --exclude-entrypoints ./bench-internals) ;; esac
  say "attw ${args[*]} $(basename "$tarball")"
  "$bin/attw" "$tarball" "${args[@]}" --format table-flipped
done

cp "$root"/.ci/consumer/* "$work/app/"
cd "$work/app"
say "npm install of the tarballs"
npm install --no-audit --no-fund --loglevel=error "$work"/npm/*.tgz \
  "typescript@$(versionOf typescript .)" \
  "@types/node@$(versionOf @types/node .)" \
  "msw@$(versionOf msw packages/sdk)"

for config in tsconfig.node16.json tsconfig.bundler.json; do
  say "tsc --noEmit -p $config (skipLibCheck false)"
  npx tsc -p "$config"
  say "$config: 0 type errors"
done

say "ESM import smoke test"
node smoke.mjs
say "CJS require smoke test"
node smoke.cjs
say "bin"
npx voice-eval --help >/dev/null
say "ok"
