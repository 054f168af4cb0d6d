import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import type { Request } from 'express';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { mountPathOf, publicBaseUrl } from '../../net/public-url.js';
import { receiveDelivery } from './receive.js';
import { getProductionCall, listProductionCalls } from './service.js';
import { submitProductionCall } from './submit.js';

const s = initServer();

/** A request whose body parser kept the raw bytes (the ingest routes' parsers do). */
export type RawBodyRequest = Request & { rawBody?: Buffer };

/**
 * The URL the platform called, as it signed it: the public URL when one is configured (behind a
 * proxy the request's own host is not what the platform saw), else the request's.
 */
const calledUrl = (deps: Deps, req: Request) =>
  `${publicBaseUrl(deps.config.publicUrl, req)}${req.originalUrl.slice(mountPathOf(req).length)}`;

/** Handlers of `contract.productionCalls`. */
export const productionCallRoutes = (deps: Deps) =>
  s.router(contract.productionCalls, {
    submit: async ({ body, req }) => submitProductionCall(deps, contextOf(req), body),
    list: async ({ query, req }) => ({
      status: 200,
      body: await listProductionCalls(deps, contextOf(req), query),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await getProductionCall(deps, contextOf(req), params.production_call_id),
    }),
    ingest: async ({ params, body, req }) => {
      const raw = req as unknown as RawBodyRequest;
      return {
        status: 200,
        body: await receiveDelivery(deps, params.platform, params.integration_id, {
          rawBody: raw.rawBody ?? Buffer.alloc(0),
          header: (name) => raw.get(name),
          url: calledUrl(deps, raw),
          body,
        }),
      };
    },
  });
