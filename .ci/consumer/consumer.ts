/**
 * A consumer of the packed packages (ESM). Type-checked with `skipLibCheck: false`; every
 * `@ts-expect-error` must find an error, so the check fails when a package's types degrade to `any`.
 */
import { contract, type Metric, type MetricCreateBody, MetricSchema } from '@voice-eval/contract';
import { createOpenApiDocument } from '@voice-eval/contract/openapi';
import { NotFoundError, type Page, type VoiceEval } from '@voice-eval/sdk';
import { createVoiceEvalMocks } from '@voice-eval/sdk/msw';
import { createVoiceEvalServer, type VoiceEvalServerOptions } from '@voice-eval/server';
import { startOpenAiDouble } from '@voice-eval/server/testing';

type IsAny<T> = 0 extends 1 & T ? true : false;
const notAny = <T>(_value: T, isAny: IsAny<T>) => isAny;

export const useSdk = async (client: VoiceEval): Promise<Metric> => {
  const metric = await client.metrics.create({ name: 'Resolved', metric_type: 'boolean' });
  notAny(metric, false);
  notAny(metric.lifecycle, false);
  const lifecycle: 'active' | 'draft' = metric.lifecycle;
  const page: Page<Metric> = await client.metrics.list({ page: 1, page_size: 20 });
  notAny(page.items, false);
  // @ts-expect-error wrong body: name is a string
  await client.metrics.create({ name: 1 });
  // @ts-expect-error unknown field
  await client.metrics.create({ name: 'Resolved', bogus: true });
  // @ts-expect-error wrong enum value
  await client.metrics.create({ name: 'Resolved', metric_type: 'percent' });
  // @ts-expect-error wrong enum value in a query
  await client.metrics.list({ lifecycle: 'archived' });
  // @ts-expect-error no such route
  await client.metrics.archive(metric.id);
  const error = await client.metrics.get(metric.id).catch((e: unknown) => e);
  if (error instanceof NotFoundError) notAny(error.status, false);
  return { ...metric, lifecycle };
};

export const useMocks = () => {
  const api = createVoiceEvalMocks({ baseUrl: 'https://api.voice-eval.test' });
  const metric = api.fixtures.metric({ name: 'Greeting' });
  notAny(metric, false);
  api.mocks.metrics.get(metric);
  api.mocks.metrics.get(() => ({ status: 200, body: metric }));
  api.mocks.metrics.get.error(404);
  // @ts-expect-error wrong body: lifecycle is an enum
  api.mocks.metrics.get({ ...metric, lifecycle: 'archived' });
  // @ts-expect-error 418 is not a status of metrics.get
  api.mocks.metrics.get(() => ({ status: 418, body: metric }));
  // @ts-expect-error unknown fixture field
  api.fixtures.metric({ bogus: true });
  return api.handlers.length;
};

export const useContract = (): MetricCreateBody => {
  notAny(contract.metrics.create, false);
  const method: 'POST' = contract.metrics.create.method;
  // @ts-expect-error metrics.create is a POST
  const wrong: 'GET' = contract.metrics.create.method;
  const parsed = MetricSchema.safeParse({});
  if (parsed.success) notAny(parsed.data.metric_type, false);
  // @ts-expect-error wrong enum value
  const body: MetricCreateBody = { name: 'Resolved', metric_type: 'percent' };
  // @ts-expect-error unknown field
  const extra: MetricCreateBody = { name: 'Resolved', bogus: true };
  const document = createOpenApiDocument();
  notAny(document, false);
  return { name: `${method}${wrong}${String(body)}${String(extra)}` };
};

export const useServer = (options: VoiceEvalServerOptions) => {
  const server = createVoiceEvalServer(options);
  notAny(server, false);
  notAny(startOpenAiDouble, false);
  // @ts-expect-error unknown option
  createVoiceEvalServer({ bogus: true });
  return server;
};
