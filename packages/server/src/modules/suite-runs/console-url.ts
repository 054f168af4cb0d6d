import type { Deps } from '../../deps.js';
import { consoleUrl } from '../../net/public-url.js';

/**
 * A run's page in the console (`<publicUrl>/console/runs/<id>`), handed out on the run and in its
 * webhook events: null when the server has no public URL or does not serve the console.
 */
export const runConsoleUrl = (deps: Pick<Deps, 'config'>, runId: string): string | null =>
  consoleUrl(deps.config, `/runs/${runId}`);
