/**
 * A CommonJS consumer of the packed packages: `require` resolves their `.d.cts` declarations.
 * Without `@voice-eval/sdk/msw`: msw's own CommonJS declarations import the ESM-only `rettime`,
 * which `module: node16` refuses (TS1479) whatever our declarations say.
 */
import { contract, type Metric, type MetricCreateBody } from '@voice-eval/contract';
import type { VoiceEval } from '@voice-eval/sdk';

type IsAny<T> = 0 extends 1 & T ? true : false;
function notAny<T>(_value: T, isAny: IsAny<T>) {
  return isAny;
}

export const useSdk = async (client: VoiceEval): Promise<Metric> => {
  notAny(contract.metrics.get, false);
  const metric = await client.metrics.create({ name: 'Resolved', metric_type: 'boolean' });
  notAny(metric, false);
  // @ts-expect-error wrong body: name is a string
  await client.metrics.create({ name: 1 });
  // @ts-expect-error unknown field
  await client.metrics.create({ name: 'Resolved', bogus: true });
  // @ts-expect-error wrong enum value
  const body: MetricCreateBody = { name: 'Resolved', metric_type: 'percent' };
  // @ts-expect-error wrong enum value in a query
  await client.metrics.list({ lifecycle: 'archived' });
  return { ...metric, name: String(body) };
};
