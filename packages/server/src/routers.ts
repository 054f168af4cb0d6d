import type { AppRouter } from '@ts-rest/core';
import type { createExpressEndpoints } from '@ts-rest/express';

/** The handlers of a contract area, as `createExpressEndpoints` takes them. */
export type RouterFor<T extends AppRouter> = Parameters<typeof createExpressEndpoints<T>>[1];

/** The handlers of a contract area with their keys in the contract's declaration order. */
export const inContractOrder = <T extends AppRouter>(area: T, router: RouterFor<T>): RouterFor<T> =>
  Object.fromEntries(
    Object.keys(area).map((key) => [key, (router as Record<string, unknown>)[key]]),
  ) as RouterFor<T>;
