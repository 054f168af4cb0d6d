import type { ClientInferRequest, ServerInferResponses } from '@ts-rest/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { contract, Metric, Problem, SuiteRun, WebhookEventData } from '../src/index.js';

describe('inferred types', () => {
  it("a suite run and its events carry the run's console page; events of older servers may lack it", () => {
    expectTypeOf<SuiteRun['console_url']>().toEqualTypeOf<string | null>();
    type Settled = WebhookEventData<'suite_run.completed'>;
    expectTypeOf<Settled['console_url']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<WebhookEventData<'suite_run.failed'>>().toEqualTypeOf<Settled>();
  });

  it('metrics.create takes a body with a required name and answers 201 with a Metric', () => {
    type Request = ClientInferRequest<typeof contract.metrics.create>;
    expectTypeOf<Request['body']['name']>().toEqualTypeOf<string>();
    type Created = Extract<ServerInferResponses<typeof contract.metrics.create>, { status: 201 }>;
    expectTypeOf<Created['body']>().toEqualTypeOf<Metric>();
  });

  it('metrics.get takes the metric id as a path parameter', () => {
    type Request = ClientInferRequest<typeof contract.metrics.get>;
    expectTypeOf<Request['params']>().toEqualTypeOf<{ metric_id: string }>();
  });

  it('every route answers errors with a Problem', () => {
    type NotFound = Extract<ServerInferResponses<typeof contract.metrics.get>, { status: 404 }>;
    expectTypeOf<NotFound['body']>().toEqualTypeOf<Problem>();
  });

  it('a workspace-scoped metric has a nullable workspace_id and inlined children', () => {
    expectTypeOf<Metric['workspace_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<Metric['children'][number]['parent_metric_id']>().toEqualTypeOf<string | null>();
  });
});
