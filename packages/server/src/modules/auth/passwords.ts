import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 16_384, r: 8, p: 1, keylen: 64 } as const;

const derive = (password: string, salt: Buffer, p: { N: number; r: number; p: number; keylen: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 64 * 1024 * 1024 };
    scrypt(password.normalize('NFKC'), salt, p.keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });

/** Hashes a password with scrypt: `scrypt$N$r$p$salt$hash` (base64 parts). */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
};

/** A hash of a random password, compared against when the user does not exist (equal timing). */
let decoy: Promise<string> | undefined;

/** Checks a password against a stored hash in constant time; a null hash still costs one derivation. */
export const verifyPassword = async (password: string, stored: string | null): Promise<boolean> => {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const hash = stored ?? (await decoy);
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
