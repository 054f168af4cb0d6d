import type { NextFunction, Request, Response } from 'express';
import { ApiError, type FieldError } from '../errors.js';

/**
 * How deep a request value may nest (JSON body, query, form). The deepest body the API takes is
 * a handful of levels; the cap keeps every later step (validation, `JSON.stringify`, jsonb) off
 * the recursion limits a hostile `[[[[...]]]]` would hit.
 */
export const MAX_DEPTH = 64;

type WellFormed = { isWellFormed(): boolean };

/** Text Postgres cannot store: U+0000 (text and jsonb refuse it) or a lone UTF-16 surrogate. */
const badText = (text: string): string | undefined => {
  if (text.includes('\0')) return 'contains U+0000 (NUL), which text cannot hold';
  if (!(text as unknown as WellFormed).isWellFormed()) {
    return 'contains a lone UTF-16 surrogate, which is not valid Unicode';
  }
  return undefined;
};

/** A key as a path segment, its bad characters written as escapes so the error itself is valid text. */
const segment = (key: string) =>
  key.replace(/[\0\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Every bad string (value or key) and every value nested past `MAX_DEPTH` under `root`, as field
 * errors. Iterative, so depth cannot overflow the stack; stops after a few errors.
 */
const collect = (root: string, value: unknown, errors: FieldError[]) => {
  const stack: Array<[unknown, string, number]> = [[value, root, 0]];
  while (stack.length > 0 && errors.length < 10) {
    const [node, path, depth] = stack.pop()!;
    if (typeof node === 'string') {
      const message = badText(node);
      if (message) errors.push({ path, message: `The value ${message}.` });
    } else if (typeof node === 'object' && node !== null) {
      if (depth >= MAX_DEPTH) {
        errors.push({ path, message: `The value nests deeper than ${MAX_DEPTH} levels.` });
        continue;
      }
      for (const [key, child] of Object.entries(node)) {
        const childPath = `${path}.${segment(key)}`;
        const message = badText(key);
        if (message) errors.push({ path: childPath, message: `The key ${message}.` });
        stack.push([child, childPath, depth + 1]);
      }
    }
  }
};

/** Quick pass (no paths, no allocation per string): true when `collect` would find nothing. */
const isClean = (value: unknown): boolean => {
  if (typeof value === 'string') return badText(value) === undefined;
  if (typeof value !== 'object' || value === null) return true;
  const stack: unknown[] = [value];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop() as object;
    const depth = depths.pop()!;
    if (depth >= MAX_DEPTH) return false;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      if (badText(key)) return false;
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'string') {
        if (badText(child)) return false;
      } else if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return true;
};

/** The client's names of uploaded files, by form field (multer's `req.file` / `req.files`). */
const fileNames = (req: Request): Record<string, string[]> | undefined => {
  if (!req.file && !req.files) return undefined;
  const files = [
    req.file ?? [],
    ...(Array.isArray(req.files) ? req.files : Object.values(req.files ?? {})),
  ].flat();
  if (files.length === 0) return undefined;
  const names: Record<string, string[]> = {};
  for (const file of files) names[file.fieldname] = [...(names[file.fieldname] ?? []), file.originalname];
  return names;
};

/**
 * The one check that every text a request carries is storable: path parameters, query, JSON body
 * or form fields, and uploaded file names. U+0000, a lone surrogate (in a value or a key) or
 * nesting past `MAX_DEPTH` is a 422 `validation_failed` naming each field, before any handler or
 * the idempotency fingerprint sees the request. It is a global middleware of every contract
 * route, and runs again after a route's own middleware (`guardRouter`: multipart forms are parsed
 * there), so a new route or field cannot miss it; see README "API conventions".
 */
export const textGuard = (req: Request, _res: Response, next: NextFunction) => {
  const names = fileNames(req);
  // every request passes here: a clean one (nearly all) builds no list of parts
  if (isClean(req.params) && isClean(req.query) && isClean(req.body) && isClean(names)) return next();
  const parts: Array<[string, unknown]> = [
    ['params', req.params],
    ['query', req.query],
    ['body', req.body],
  ];
  if (names) parts.push(['body', names]);
  const errors: FieldError[] = [];
  for (const [root, value] of parts) collect(root, value, errors);
  next(new ApiError('validation_failed', 'Text must be valid Unicode without U+0000.', { errors }));
};

type RouteImplementation = ((...args: never[]) => unknown) | { handler: unknown; middleware?: unknown[] };

/**
 * A ts-rest router with `textGuard` appended to the middleware of every route that has its own
 * (an upload parser fills `req.body` after the global middleware ran).
 */
export const guardRouter = <T>(router: T): T => {
  const guard = (node: unknown): unknown => {
    if (typeof node === 'function') return node;
    const route = node as RouteImplementation & Record<string, unknown>;
    if (typeof route.handler === 'function') {
      const own = (route.middleware as unknown[] | undefined) ?? [];
      return own.length > 0 ? { ...route, middleware: [...own, textGuard] } : route;
    }
    return Object.fromEntries(Object.entries(route).map(([key, child]) => [key, guard(child)]));
  };
  return guard(router) as T;
};
