import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { r: 8, p: 1, keylen: 64 } as const;

const derive = (password: string, salt: Buffer, p: { N: number; r: number; p: number; keylen: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 64 * 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, p.keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });

/** Hashes a password with scrypt at cost `N` (config `passwordHashCost`): `scrypt$N$r$p$salt$hash` (base64 parts). */
export const hashPassword = async (password: string, N: number): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { ...PARAMS, N });
  return ['scrypt', N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
};

/** Hashes of a random password by cost, compared against when the user does not exist (equal timing). */
const decoys = new Map<number, Promise<string>>();

/**
 * Checks a password against a stored hash (at the cost it was made with) in constant time; a null
 * hash still costs one derivation at cost `N`.
 */
export const verifyPassword = async (
  password: string,
  stored: string | null,
  N: number,
): Promise<boolean> => {
  if (!decoys.has(N)) decoys.set(N, hashPassword(randomBytes(16).toString('hex'), N));
  const hash = stored ?? (await decoys.get(N)!);
  const [scheme, n, r, p, salt, expected] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const want = Buffer.from(expected, 'base64');
  const got = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keylen: want.length,
  });
  return stored !== null && got.length === want.length && timingSafeEqual(got, want);
};
