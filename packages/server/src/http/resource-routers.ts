import type { AppRouter } from '@ts-rest/core';
import express, { type RequestHandler, type Router } from 'express';
import { routesOf } from './contract-routes.js';

/** Every contract path starts with it; the segment after it names the resource. */
const API_PREFIX = '/api/v1/';

/** The resource segments an area's paths start with: `workspaces` for `/api/v1/workspaces/:workspace_id`. */
const segmentsOf = (area: AppRouter): Set<string> => {
  const segments = new Set<string>();
  for (const { path } of routesOf(area)) {
    const segment = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length).split('/')[0] : undefined;
    if (!segment || segment.startsWith(':')) {
      throw new Error(`${path}: contract paths start with ${API_PREFIX}<resource>`);
    }
    segments.add(segment.toLowerCase());
  }
  return segments;
};

/**
 * One Express router per contract area, reached through the resource segment of the path
 * (`/api/v1/<segment>/…`) in one map lookup. Mounted on the app, the routes would be walked one
 * by one, matching each path pattern in turn: ~120 routes, so the last-mounted areas (suite runs,
 * evaluator results, webhook endpoints) paid about 29 µs more server CPU per request than the
 * first (the http-overhead request on Postgres, workspaces mounted last instead of second).
 * Routes keep Express's matching (case-insensitive, an optional trailing slash), and areas
 * sharing a segment are tried in the order they were added.
 */
export const resourceRouters = () => {
  const bySegment = new Map<string, Router[]>();

  /** A router for the area's routes; a request under one of its segments reaches it. */
  const routerFor = (area: AppRouter): Router => {
    const router = express.Router();
    for (const segment of segmentsOf(area))
      bySegment.set(segment, [...(bySegment.get(segment) ?? []), router]);
    return router;
  };

  /** Hands the request to the routers of its segment; anything else passes on. */
  const dispatch: RequestHandler = (req, res, next) => {
    const path = req.path;
    if (!path.startsWith(API_PREFIX) && path.slice(0, API_PREFIX.length).toLowerCase() !== API_PREFIX) {
      next();
      return;
    }
    const end = path.indexOf('/', API_PREFIX.length);
    const segment = path.slice(API_PREFIX.length, end === -1 ? undefined : end);
    const routers = bySegment.get(segment) ?? bySegment.get(segment.toLowerCase());
    if (!routers) {
      next();
      return;
    }
    let i = 0;
    const step = (err?: unknown): void => {
      if (err || i === routers.length) next(err);
      else routers[i++]!(req, res, step);
    };
    step();
  };

  return { routerFor, dispatch };
};
