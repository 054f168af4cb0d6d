import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  VoiceBundleCreateBodySchema,
  VoiceBundleListQuerySchema,
  VoiceBundleSchema,
  VoiceBundleUpdateBodySchema,
} from '../resources/voice-bundle.js';

const c = initContract();
const voiceBundleId = z.object({ voice_bundle_id: IdParam });

export const voiceBundles = c.router({
  create: {
    method: 'POST',
    path: '/api/v1/voicebundles',
    body: VoiceBundleCreateBodySchema,
    responses: { 201: VoiceBundleSchema },
    summary: 'Create a voice bundle in the active workspace',
  },
  list: {
    method: 'GET',
    path: '/api/v1/voicebundles',
    query: PageQuerySchema.merge(VoiceBundleListQuerySchema),
    responses: { 200: pageOf(VoiceBundleSchema) },
    summary: 'List voice bundles',
  },
  get: {
    method: 'GET',
    path: '/api/v1/voicebundles/:voice_bundle_id',
    pathParams: voiceBundleId,
    responses: { 200: VoiceBundleSchema },
    summary: 'Get a voice bundle',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/voicebundles/:voice_bundle_id',
    pathParams: voiceBundleId,
    body: VoiceBundleUpdateBodySchema,
    responses: { 200: VoiceBundleSchema },
    summary: 'Update a voice bundle',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/voicebundles/:voice_bundle_id',
    pathParams: voiceBundleId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a voice bundle',
  },
});
