import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  ScenarioCreateBodySchema,
  ScenarioListQuerySchema,
  ScenarioSchema,
  ScenarioUpdateBodySchema,
} from '../resources/scenario.js';

const c = initContract();
const scenarioId = z.object({ scenario_id: IdParam });

export const scenarios = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/scenarios',
    query: PageQuerySchema.merge(ScenarioListQuerySchema),
    responses: { 200: pageOf(ScenarioSchema) },
    summary: 'List scenarios of the workspace',
  },
  create: {
    method: 'POST',
    path: '/api/v1/scenarios',
    body: ScenarioCreateBodySchema,
    responses: { 201: ScenarioSchema },
    summary: 'Create a scenario',
  },
  get: {
    method: 'GET',
    path: '/api/v1/scenarios/:scenario_id',
    pathParams: scenarioId,
    responses: { 200: ScenarioSchema },
    summary: 'Get a scenario',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/scenarios/:scenario_id',
    pathParams: scenarioId,
    body: ScenarioUpdateBodySchema,
    responses: { 200: ScenarioSchema },
    summary: 'Update a scenario',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/scenarios/:scenario_id',
    pathParams: scenarioId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a scenario (409 in_use while evaluators or suites use it)',
  },
});
