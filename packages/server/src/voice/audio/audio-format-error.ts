/**
 * Audio bytes the layer cannot decode: not a known container, an unsupported encoding, or a
 * truncated or corrupt file. Upload handlers turn it into a validation problem for the user.
 */
export class AudioFormatError extends Error {
  override name = 'AudioFormatError';
}
