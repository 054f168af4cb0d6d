import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  MonitorAlertSchema,
  MonitorCallListQuerySchema,
  MonitorCallSchema,
  MonitorCreateBodySchema,
  MonitorListQuerySchema,
  MonitorSchema,
  MonitorUpdateBodySchema,
} from '../resources/monitor.js';

const c = initContract();
const monitorId = z.object({ monitor_id: IdParam });

export const monitors = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/monitors',
    query: PageQuerySchema.merge(MonitorListQuerySchema),
    responses: { 200: pageOf(MonitorSchema) },
    summary: "List the workspace's production monitors",
  },
  create: {
    method: 'POST',
    path: '/api/v1/monitors',
    body: MonitorCreateBodySchema,
    responses: { 201: MonitorSchema },
    summary: "Score an agent's production calls on arrival (a sampled share) and alert on failures",
  },
  get: {
    method: 'GET',
    path: '/api/v1/monitors/:monitor_id',
    pathParams: monitorId,
    responses: { 200: MonitorSchema },
    summary: 'Get a monitor',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/monitors/:monitor_id',
    pathParams: monitorId,
    body: MonitorUpdateBodySchema,
    responses: { 200: MonitorSchema },
    summary: 'Change a monitor (new metrics start a new evaluation; new rules restart their cooldowns)',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/monitors/:monitor_id',
    pathParams: monitorId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a monitor and its alert history (its evaluation and scores stay)',
  },
  calls: {
    method: 'GET',
    path: '/api/v1/monitors/:monitor_id/calls',
    pathParams: monitorId,
    query: PageQuerySchema.merge(MonitorCallListQuerySchema),
    responses: { 200: pageOf(MonitorCallSchema) },
    summary: 'The calls a monitor saw, newest first: whether each was judged, and its outcome',
  },
  alerts: {
    method: 'GET',
    path: '/api/v1/monitors/:monitor_id/alerts',
    pathParams: monitorId,
    query: PageQuerySchema,
    responses: { 200: pageOf(MonitorAlertSchema) },
    summary: "A monitor's alert history, newest first",
  },
});
