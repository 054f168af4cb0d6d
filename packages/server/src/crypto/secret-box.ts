import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Format tag of sealed values; a new format gets a new tag so old values stay readable. */
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte AES key and the id stored beside every value it sealed. */
export type SecretKey = { id: string; key: Buffer };

/** Thrown when a sealed value cannot be opened: unknown key id, wrong context, or tampering. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** A key's id: the first 8 hex characters of its SHA-256, so ids need no configuration. */
export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

const b64 = (buf: Buffer) => buf.toString('base64url');

/**
 * Encrypts secrets at rest with AES-256-GCM. A sealed value reads `v1.<key id>.<iv>.<tag>.<data>`
 * (base64url), so a key rotation only adds the new key: values sealed with a retired key still
 * open while that key is listed as a previous key, and {@link SecretBox.needsRotation} finds them.
 * `context` is bound as additional authenticated data: a value copied to another row or
 * organization does not open.
 */
export class SecretBox {
  readonly #current: SecretKey;
  readonly #byId: Map<string, Buffer>;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new SecretBoxError('Encryption keys must be 32 bytes.');
    }
    this.#current = { id: keyIdOf(current), key: current };
    this.#byId = new Map([...previous, current].map((key) => [keyIdOf(key), key]));
  }

  /** The id of the key new values are sealed with. */
  get keyId(): string {
    return this.#current.id;
  }

  /** Encrypts `plaintext` for `context` (e.g. `ai_provider.api_key:<organization id>`). */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.#current.id, b64(iv), b64(cipher.getAuthTag()), b64(data)].join('.');
  }

  /** Decrypts a value sealed for the same `context`; throws {@link SecretBoxError} otherwise. */
  open(sealed: string, context: string): string {
    const [format, keyId, iv, tag, data] = sealed.split('.');
    if (format !== FORMAT || !keyId || !iv || !tag || data === undefined) {
      throw new SecretBoxError('Not a sealed value.');
    }
    const key = this.#byId.get(keyId);
    if (!key) throw new SecretBoxError(`No encryption key with id ${keyId} is configured.`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError('The sealed value failed authentication.');
    }
  }

  /** True when `sealed` was made with a key other than the current one (re-seal it). */
  needsRotation(sealed: string): boolean {
    return sealed.split('.')[1] !== this.#current.id;
  }
}
