import { type HumanLabelExportRow, labelExportCsv, labelExportFileName } from '@voice-eval/contract';
import type { RequestContext } from '../../context.js';
import { iso } from '../../db/rows.js';
import type { Deps } from '../../deps.js';
import { type CallRef, visibleCallRows } from '../call-imports/service.js';
import { judgedValues } from '../evaluations/service.js';
import { getMetric } from '../metrics/service.js';
import * as repo from './repo.js';
import { topLevel } from './service.js';

/** Call ids per look-up of the calls: a bound parameter each, well below any driver's limit. */
const CALLS_PER_QUERY = 5_000;

const callsOf = async (deps: Deps, ctx: RequestContext, rowIds: readonly string[]) => {
  const calls = new Map<string, CallRef>();
  for (let at = 0; at < rowIds.length; at += CALLS_PER_QUERY) {
    const found = await visibleCallRows(deps, ctx, rowIds.slice(at, at + CALLS_PER_QUERY));
    for (const [id, call] of found) calls.set(id, call);
  }
  return calls;
};

/**
 * Every label of the workspace on a top-level metric (not paged), in the list's order and with its
 * filters, each with its metric, its call and the judge's value for the call on the metric's
 * current version (its latest completed score) with that version's number, both null when none.
 */
export const labelExportRows = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  filters: { call_import_row_id?: string; labelled_by?: string },
): Promise<{ metricName: string; rows: HumanLabelExportRow[] }> => {
  const metric = topLevel(
    await getMetric(deps, ctx, metricId),
    "Export the category's labels (the parent metric): this label is one of its values.",
  );
  const labels = await repo.labelsToExport(deps.db, ctx, metric.id, filters);
  const rowIds = [...new Set(labels.map((label) => label.call_import_row_id))];
  const [calls, judged] = await Promise.all([
    callsOf(deps, ctx, rowIds),
    judgedValues(deps, ctx, metric.id, metric.version, rowIds),
  ]);
  const judgeOf = (score: { value: HumanLabelExportRow['judge_value'] } | undefined) =>
    score
      ? { judge_value: score.value, judge_version: metric.version }
      : { judge_value: null, judge_version: null };
  const rows = labels.flatMap((label): HumanLabelExportRow[] => {
    const call = calls.get(label.call_import_row_id);
    // a label's call is in its workspace (labelling checks it) and goes with it when deleted
    if (!call) return [];
    return [
      {
        metric_id: metric.id,
        metric_name: metric.name,
        call_import_id: call.call_import_id,
        call_import_row_id: label.call_import_row_id,
        conversation_id: call.conversation_id,
        value: label.value,
        note: label.note,
        labelled_by: label.labelled_by,
        created_at: iso(label.created_at),
        updated_at: iso(label.updated_at),
        ...judgeOf(judged.get(label.call_import_row_id)),
      },
    ];
  });
  return { metricName: metric.name, rows };
};

/** The export as a file: its media type, its attachment name and its bytes. */
export const labelExportFile = async (
  deps: Deps,
  ctx: RequestContext,
  metricId: string,
  query: { format: 'csv' | 'json'; call_import_row_id?: string; labelled_by?: string },
): Promise<{ contentType: string; fileName: string; bytes: Buffer }> => {
  const { format, ...filters } = query;
  const { metricName, rows } = await labelExportRows(deps, ctx, metricId, filters);
  return format === 'csv'
    ? {
        contentType: 'text/csv; charset=utf-8; header=present',
        fileName: labelExportFileName(metricName, 'csv'),
        bytes: Buffer.from(labelExportCsv(rows)),
      }
    : {
        contentType: 'application/json; charset=utf-8',
        fileName: labelExportFileName(metricName, 'json'),
        bytes: Buffer.from(JSON.stringify(rows)),
      };
};
