import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  it('keep the cost they were made with: a hash verifies whatever the cost of new ones', async () => {
    const cheap = await hashPassword('correct horse battery', 1024);
    const dear = await hashPassword('correct horse battery', 16_384);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(dear).toMatch(/^scrypt\$16384\$8\$1\$/);
    for (const stored of [cheap, dear]) {
      expect(await verifyPassword('correct horse battery', stored, 16_384)).toBe(true);
      expect(await verifyPassword('correct horse batterY', stored, 1024)).toBe(false);
    }
    expect(await verifyPassword('anything', null, 1024)).toBe(false);
  });
});
