import { afterAll } from 'vitest';
import { runFileEnd } from './file-end.js';

// registered before the file's own hooks, so it runs after them (Vitest runs `afterAll` hooks in
// reverse order): a file's `afterAll` can still use its harness
afterAll(runFileEnd);
