import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, JsonObject, PageQuerySchema, PUBLIC_ROUTE, pageOf } from '../common.js';
import {
  IngestPlatformSchema,
  IngestReceiptSchema,
  ProductionCallListQuerySchema,
  ProductionCallSchema,
  ProductionCallSubmitBodySchema,
  ProductionCallSubmitResultSchema,
} from '../resources/production-call.js';

const c = initContract();

export const productionCalls = c.router({
  submit: {
    method: 'POST',
    path: '/api/v1/production-calls',
    body: ProductionCallSubmitBodySchema,
    responses: { 200: ProductionCallSubmitResultSchema, 202: ProductionCallSubmitResultSchema },
    summary:
      "Submit a live agent's call: 202 when it is new (its recording is downloaded and its transcript written or made in the background), 200 with the existing call when its external id was seen",
  },
  list: {
    method: 'GET',
    path: '/api/v1/production-calls',
    query: PageQuerySchema.merge(ProductionCallListQuerySchema),
    responses: { 200: pageOf(ProductionCallSchema) },
    summary: 'List production calls of the workspace, newest first',
  },
  get: {
    method: 'GET',
    path: '/api/v1/production-calls/:production_call_id',
    pathParams: z.object({ production_call_id: IdParam }),
    responses: { 200: ProductionCallSchema },
    summary: 'Get a production call',
  },
  /**
   * Where voice-agent platforms push finished calls. No API key: each delivery is verified with the
   * integration's secret by the platform's own signature scheme, over the raw body.
   */
  ingest: {
    method: 'POST',
    path: '/api/v1/ingest/:platform/:integration_id',
    pathParams: z.object({ platform: IngestPlatformSchema, integration_id: IdParam }),
    body: JsonObject,
    responses: { 200: IngestReceiptSchema },
    metadata: PUBLIC_ROUTE,
    summary:
      "A platform's webhook: Vapi end-of-call-report, Retell call_ended / call_analyzed, ElevenLabs post_call_transcription / post_call_audio (JSON), Twilio recording status callback (form-encoded); signed, stored, answered at once",
  },
});
