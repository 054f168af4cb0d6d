import { chatReply } from '../../src/testing/openai-compatible.js';
import { encodeWav } from '../../src/voice/audio/index.js';
import { importCalls, makeMetric, makeSchema, unique } from '../sdk-e2e/fixtures.js';
import type { Drive } from './drive.js';

const SUGGESTION = {
  name: 'Confirms appointment time',
  description: 'Passes when the agent repeats the booked date and time back to the caller.',
  metric_type: 'boolean',
  custom_data_type: 'boolean',
  custom_config: { min: null, max: null, labels: [] },
  suggested_tags: ['Booking'],
};

const RUBRIC =
  'Label #1\nName: Greeting\nDefinition: Greets the caller.\nExamples:\n- "Hello"\n\n' +
  'Label #2\nName: Farewell\nDefinition: Says goodbye.\nExamples:\n- "Bye"';

/** Metrics: CRUD, drafts and promotion, discovered metrics, LLM-assisted authoring. */
export const driveMetrics = async ({ client, double }: Drive) => {
  const parent = await makeMetric(client, { metric_type: 'category', selection_mode: 'single_choice' });
  const child = await makeMetric(client, { name: unique('Child'), parent_metric_id: parent.id });
  await client.metrics.get(parent.id);
  await client.metrics.update(parent.id, { description: 'How the call ended', tags: ['outcome'] });
  await client.metrics.list({ page: 1, page_size: 10, lifecycle: 'active' });
  await client.metrics.versions(parent.id, { page: 1, page_size: 10 });
  const draft = await client.metrics.createDraft({ name: unique('Draft') });
  await client.metrics.promote(draft.id);
  const key = `refunds_${Math.random().toString(36).slice(2, 8)}`;
  await client.metrics.fromDiscovered({ key, name: unique('Refunds'), metric_type: 'rating' });
  double.enqueue('/v1/chat/completions', chatReply(SUGGESTION));
  await client.metrics.generate({ mode: 'description', input: 'confirms the appointment time' });
  await client.metrics.parseBulk({ prompt: RUBRIC, parent_name: 'Call phases' });
  await client.metrics.delete(child.id);
};

/** Call-import schemas, call imports, transcription, evaluations and metric clusters. */
export const driveCalls = async ({ client, double }: Drive) => {
  const schema = await makeSchema(client);
  await client.callImportSchemas.get(schema.id);
  await client.callImportSchemas.list();
  const spare = await makeSchema(client);
  await client.callImportSchemas.delete(spare.id);

  const calls = [
    { id: 'call-1', transcript: 'Agent: Hello, how can I help?\nUser: I want a refund.' },
    { id: 'call-2', transcript: 'Agent: Good morning.\nUser: Bye.' },
  ];
  const imported = await importCalls(client, calls, schema.id);
  await client.callImports.list({ page: 1, page_size: 5 });
  await client.callImports.get(imported.id, { row_limit: 10 });
  await client.callImports.rowIds(imported.id);
  await client.callImports.dispatchDiagnostics({ include_idle_workspaces: true });
  await client.callImports.transcribe(imported.id, { mode: 'llm_only' });
  await client.callImports.cancelDiarisation(imported.id);

  // a recorded call: its row, its recording whole and in part, a range past the end, a signed
  // URL, its peaks
  const audioSchema = await client.callImportSchemas.create({
    name: unique('Recorded'),
    parameters: [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'recording', type: 'recording_url', is_required: true },
    ],
  });
  const wav = encodeWav({ sampleRate: 8000, channels: [new Int16Array(800), new Int16Array(800)] });
  const recorded = await client.callImports.create({
    schema_id: audioSchema.id,
    files: [new File([wav as BlobPart], 'call-1.wav', { type: 'audio/wav' })],
  });
  const row = (await client.callImports.get(recorded.id)).rows[0]!;
  await client.callImports.getRow(recorded.id, row.id);
  await (await client.callImports.recording(recorded.id, row.id)).arrayBuffer();
  await (
    await client.callImports.recording(recorded.id, row.id, { range: { start: 0, end: 43 } })
  ).arrayBuffer();
  await client.callImports
    .recording(recorded.id, row.id, { range: { start: 1_000_000 } })
    .catch(() => undefined);
  await client.callImports.recordingUrl(recorded.id, row.id);
  await client.callImports.recordingPeaks(recorded.id, row.id, { points: 100 });

  const metric = await makeMetric(client, { metric_type: 'boolean' });
  // a slow judge keeps the evaluation running until it is cancelled
  double.setLatency(3_000);
  const evaluation = await client.evaluations.create({
    call_import_id: imported.id,
    metric_ids: [metric.id],
  });
  await client.evaluations.get(evaluation.id);
  await client.evaluations.list();
  await client.evaluations.listRows(evaluation.id, { page_size: 10 });
  await client.evaluations.cancel(evaluation.id);
  double.setLatency(0);

  // people's labels of a call on the metric, and the judge's agreement with them
  const labelled = (await client.callImports.get(imported.id)).rows[0]!;
  await client.metrics.setLabel(metric.id, labelled.id, { value: false, note: 'Refund never offered.' });
  await client.metrics.labels(metric.id, { call_import_row_id: labelled.id });
  await client.metrics.exportLabels(metric.id);
  await client.metrics.exportLabels(metric.id, { format: 'json', call_import_row_id: labelled.id });
  await client.metrics.agreement(metric.id, { version: 1 });
  // a draft version tried on the labelled call beside version 1, then promoted
  const draft = await client.metrics.createVersion(metric.id, {
    description: 'Did the agent offer a refund?',
  });
  await client.metrics.scoreVersion(metric.id, draft.version);
  await client.metrics.agreement(metric.id, { version: draft.version, baseline_version: 1 });
  await client.metrics.promoteVersion(metric.id, draft.version);
  // the judge scoring the same calls again: how often its verdict flips
  const check = await client.consistencyChecks.create(metric.id, {
    source: { kind: 'call_import', call_import_id: imported.id },
    sample_size: 2,
    repeats: 2,
    seed: 3,
  });
  await client.consistencyChecks.list(metric.id, { page_size: 5 });
  await client.consistencyChecks.waitFor(metric.id, check.id, { intervalMs: 50 });
  await client.metrics.deleteLabel(metric.id, labelled.id);

  await client.evaluatorResults.metricClusters({ scope_key: 'never', since: '2026-01-01T00:00:00Z' });
  await client.evaluatorResults.generateMetricClusters({ scope_key: 'conformance', job_id: evaluation.id });
  await client.evaluatorResults.failurePolicies();
  await client.evaluatorResults.updateFailurePolicies({ policies: {} });

  const other = await importCalls(client, calls.slice(0, 1), schema.id);
  await client.callImports.delete(other.id);
};
