import { ProblemSchema } from '@voice-eval/contract';
import type { ApiError, Page, PagePromise } from '@voice-eval/sdk';
import { expect } from 'vitest';

type ErrorClass = abstract new (...args: never[]) => ApiError;

/**
 * Awaits `call`, which must fail with `ErrorClass`, and checks that server, contract and SDK
 * agree: the status, a contract-valid problem body, its code, and the request id in both the
 * header and the body. Returns the error for further checks.
 */
export const expectApiError = async <E extends ApiError>(
  call: Promise<unknown>,
  ErrorClass: ErrorClass & (abstract new (...args: never[]) => E),
  status: number,
  code?: string,
): Promise<E> => {
  const error = await call.then(
    (value) => {
      throw new Error(`Expected ${ErrorClass.name} ${status}, got a success: ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ErrorClass);
  const apiError = error as E;
  expect(apiError.status).toBe(status);
  expect(ProblemSchema.parse(apiError.body)).toEqual(apiError.problem);
  expect(apiError.problem?.status).toBe(status);
  expect(apiError.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(apiError.requestId).toBeTruthy();
  expect(apiError.requestId).toBe(apiError.problem?.request_id);
  if (code) expect(apiError.code).toBe(code);
  return apiError;
};

/**
 * Checks a list against the page contract with `expectedIds` (newest first) spread over pages
 * of `pageSize`: page fields, `hasNextPage`, `for await` across pages and `toArray`.
 */
export const expectPagination = async <T extends { id: string }>(
  list: (query: { page?: number; page_size?: number }) => PagePromise<T>,
  expectedIds: string[],
  pageSize: number,
) => {
  const first: Page<T> = await list({ page_size: pageSize });
  expect(first).toMatchObject({ page: 1, page_size: pageSize, total: expectedIds.length });
  expect(first.items.map((i) => i.id)).toEqual(expectedIds.slice(0, pageSize));
  expect(first.hasNextPage()).toBe(expectedIds.length > pageSize);
  const pages: string[][] = [];
  for await (const page of first.iterPages()) pages.push(page.items.map((i) => i.id));
  expect(pages).toHaveLength(Math.max(1, Math.ceil(expectedIds.length / pageSize)));
  const walked: string[] = [];
  for await (const item of list({ page_size: pageSize })) walked.push(item.id);
  expect(walked).toEqual(expectedIds);
  expect((await list({ page_size: pageSize }).toArray({ limit: pageSize + 1 })).map((i) => i.id)).toEqual(
    expectedIds.slice(0, pageSize + 1),
  );
  const beyond = await list({ page: Math.ceil(expectedIds.length / pageSize) + 1, page_size: pageSize });
  expect(beyond.items).toEqual([]);
  expect(beyond.hasNextPage()).toBe(false);
};
