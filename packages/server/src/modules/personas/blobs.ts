import type { Deps } from '../../deps.js';

/**
 * Removes a blob that no row references any more. A failure is logged, not raised: the row is
 * already committed, and the request succeeded.
 */
export const removeBlob = async (deps: Pick<Deps, 'storage' | 'logger'>, key: string): Promise<void> => {
  try {
    await deps.storage.delete(key);
  } catch (err) {
    deps.logger.warn({ err, key }, 'blob:delete_failed');
  }
};
