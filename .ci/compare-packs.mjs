// Compares the tarballs of `npm pack` and `pnpm pack` (two folders): the same files with the same
// bytes, and the same manifest. pnpm rewrites `workspace:` ranges and `publishConfig` on pack and
// npm does not, so a difference means a user of npm would get another package than we test.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const [npmDir, pnpmDir] = process.argv.slice(2);

const unpack = (tarball) => {
  const target = `${tarball}.d`;
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target]);
  return join(target, 'package');
};

const filesOf = (dir, base = dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path, base) : [relative(base, path)];
  });

const digest = (dir) =>
  Object.fromEntries(
    filesOf(dir)
      .sort()
      .filter((file) => file !== 'package.json')
      .map((file) => [
        file,
        createHash('sha256')
          .update(readFileSync(join(dir, file)))
          .digest('hex'),
      ]),
  );

let failed = false;
for (const name of readdirSync(npmDir).filter((f) => f.endsWith('.tgz'))) {
  const a = unpack(join(npmDir, name));
  const b = unpack(join(pnpmDir, name));
  const manifestA = JSON.parse(readFileSync(join(a, 'package.json'), 'utf8'));
  const manifestB = JSON.parse(readFileSync(join(b, 'package.json'), 'utf8'));
  const filesA = digest(a);
  const filesB = digest(b);
  const differs = Object.keys({ ...filesA, ...filesB }).filter((f) => filesA[f] !== filesB[f]);
  const text = JSON.stringify(manifestA);
  const problems = [
    ...(isDeepStrictEqual(manifestA, manifestB) ? [] : ['package.json differs']),
    ...differs.map((file) => `${file} differs`),
    ...(text.includes('workspace:') ? ['package.json holds a workspace: range'] : []),
    ...('publishConfig' in manifestA ? ['package.json holds publishConfig'] : []),
  ];
  console.log(
    `compare-packs: ${name}: ${Object.keys(filesA).length + 1} files, ${problems.length ? problems.join('; ') : 'npm pack == pnpm pack'}`,
  );
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
