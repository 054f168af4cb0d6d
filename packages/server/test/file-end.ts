/**
 * What a test file's helpers opened, closed once the file's tests are done. A helper called in a
 * `beforeAll` cannot register an `afterAll` of its own (Vitest ignores hooks added while hooks
 * run), so it hands its teardown to `atFileEnd`; the setup file `file-end-setup.ts` runs them, the
 * last opened first, after the file's own `afterAll` hooks.
 */
const teardowns: Array<() => Promise<void> | void> = [];

export const atFileEnd = (teardown: () => Promise<void> | void): void => {
  teardowns.push(teardown);
};

/** Runs every teardown registered so far, newest first; the first failure is thrown after all ran. */
export const runFileEnd = async (): Promise<void> => {
  const failures: unknown[] = [];
  for (const teardown of teardowns.splice(0).reverse()) {
    try {
      await teardown();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
};
