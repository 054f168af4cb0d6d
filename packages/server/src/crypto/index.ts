import { type Config, ConfigError, decodeKey } from '../config.js';
import { SecretBox } from './secret-box.js';

export { keyIdOf, SecretBox, SecretBoxError, type SecretKey } from './secret-box.js';

/**
 * The server's secret box: `encryptionKey` seals new values, `previousEncryptionKeys` still open
 * values sealed before a rotation. Every key must decode to 32 bytes.
 */
export const createSecretBox = (config: Pick<Config, 'encryptionKey' | 'previousEncryptionKeys'>) => {
  const previous = config.previousEncryptionKeys.map(decodeKey);
  if (previous.some((key) => key.length !== 32)) {
    throw new ConfigError(
      'Invalid voice-eval configuration:\n  - previousEncryptionKeys: each must decode to 32 bytes',
    );
  }
  return new SecretBox(decodeKey(config.encryptionKey), previous);
};
