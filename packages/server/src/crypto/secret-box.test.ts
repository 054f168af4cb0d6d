import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './index.js';
import { keyIdOf, SecretBox, SecretBoxError } from './secret-box.js';

const KEY_A = randomBytes(32);
const KEY_B = randomBytes(32);
const CONTEXT = 'ai_providers.api_key:org-1';

describe('SecretBox', () => {
  it('seals with a fresh IV and the key id, and opens for the same context', () => {
    const box = new SecretBox(KEY_A);
    const one = box.seal('sk-secret', CONTEXT);
    const two = box.seal('sk-secret', CONTEXT);
    expect(one).not.toBe(two);
    expect(one).not.toContain('sk-secret');
    expect(one.split('.')[1]).toBe(keyIdOf(KEY_A));
    expect(box.open(one, CONTEXT)).toBe('sk-secret');
  });

  it('refuses another context, a tampered value and an unknown key', () => {
    const box = new SecretBox(KEY_A);
    const sealed = box.seal('sk-secret', CONTEXT);
    expect(() => box.open(sealed, 'ai_providers.api_key:org-2')).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    const data = Buffer.from(parts[4]!, 'base64url');
    data[0]! ^= 1;
    parts[4] = data.toString('base64url');
    expect(() => box.open(parts.join('.'), CONTEXT)).toThrow(SecretBoxError);
    expect(() => new SecretBox(KEY_B).open(sealed, CONTEXT)).toThrow(/No encryption key/);
    expect(() => box.open('plain text', CONTEXT)).toThrow(SecretBoxError);
  });

  it('opens values of a retired key listed as previous, and reports them for rotation', () => {
    const old = new SecretBox(KEY_A).seal('sk-secret', CONTEXT);
    const rotated = new SecretBox(KEY_B, [KEY_A]);
    expect(rotated.open(old, CONTEXT)).toBe('sk-secret');
    expect(rotated.needsRotation(old)).toBe(true);
    expect(rotated.needsRotation(rotated.seal('x', CONTEXT))).toBe(false);
    expect(rotated.keyId).toBe(keyIdOf(KEY_B));
  });

  it('is built from the configuration; keys that are not 32 bytes are refused', () => {
    const box = createSecretBox({
      encryptionKey: KEY_B.toString('hex'),
      previousEncryptionKeys: [KEY_A.toString('base64')],
    });
    expect(box.open(new SecretBox(KEY_A).seal('v', CONTEXT), CONTEXT)).toBe('v');
    expect(() =>
      createSecretBox({ encryptionKey: KEY_B.toString('hex'), previousEncryptionKeys: ['c2hvcnQ='] }),
    ).toThrow(/32 bytes/);
  });
});
