import {
  contract,
  type HumanLabel,
  type HumanLabelExportRow,
  type Metric,
  type MetricAgreement,
  type MetricVersion,
  type MetricVersionScoring,
} from '@voice-eval/contract';
import { ApiPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/pagination.js';
import { Resource } from '../core/resource.js';
import type { RequestBody, RequestQuery, ResponseBody } from '../core/route-types.js';

const routes = contract.metrics;

/** What `exportLabels` takes: `format` (`csv`, the default, or `json`) and the list's filters. */
export type LabelExportQuery = RequestQuery<'metrics', 'exportLabels'>;

/** `client.metrics`: scoring definitions, drafts and LLM-assisted authoring. */
export class Metrics extends Resource {
  /** Create a metric. */
  create(body: RequestBody<'metrics', 'create'>, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(routes.create, { body }, options);
  }

  /** Create a draft metric (hidden from evaluations until promoted). */
  createDraft(body: RequestBody<'metrics', 'createDraft'>, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(routes.createDraft, { body }, options);
  }

  /** Promote a discovered metric. */
  fromDiscovered(
    body: RequestBody<'metrics', 'fromDiscovered'>,
    options?: RequestOptions,
  ): ApiPromise<Metric> {
    return this._client.request(routes.fromDiscovered, { body }, options);
  }

  /** Suggest a metric definition with an LLM (nothing is persisted). */
  generate(
    body: RequestBody<'metrics', 'generate'>,
    options?: RequestOptions,
  ): ApiPromise<ResponseBody<'metrics', 'generate'>> {
    return this._client.request(routes.generate, { body }, options);
  }

  /** Parse a multi-label rubric into unsaved metric drafts. */
  parseBulk(
    body: RequestBody<'metrics', 'parseBulk'>,
    options?: RequestOptions,
  ): ApiPromise<ResponseBody<'metrics', 'parseBulk'>> {
    return this._client.request(routes.parseBulk, { body }, options);
  }

  /** List metrics (active ones by default). */
  list(query?: RequestQuery<'metrics', 'list'>, options?: RequestOptions): PagePromise<Metric> {
    return this._client.list(routes.list, { query }, options);
  }

  /** Get a metric with its children inlined. */
  get(id: string, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(routes.get, { params: { metric_id: id } }, options);
  }

  /** Update a metric. */
  update(id: string, body: RequestBody<'metrics', 'update'>, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(routes.update, { params: { metric_id: id }, body }, options);
  }

  /** The metric's versions, newest first: what it judged at each change, and which one is in force. */
  versions(
    id: string,
    query?: RequestQuery<'metrics', 'versions'>,
    options?: RequestOptions,
  ): PagePromise<MetricVersion> {
    return this._client.list(routes.versions, { params: { metric_id: id }, query }, options);
  }

  /** Draft a version of an active metric (new words for its judge), to score on labelled calls before promoting it. */
  createVersion(
    id: string,
    body: RequestBody<'metrics', 'createVersion'>,
    options?: RequestOptions,
  ): ApiPromise<MetricVersion> {
    return this._client.request(routes.createVersion, { params: { metric_id: id }, body }, options);
  }

  /**
   * Score a version of the metric (a draft, say) on the calls people labelled that it has no score
   * for yet; its agreement then reads `agreement(id, { version, baseline_version })`.
   */
  scoreVersion(
    id: string,
    version: number,
    body: RequestBody<'metrics', 'scoreVersion'> = {},
    options?: RequestOptions,
  ): ApiPromise<MetricVersionScoring> {
    return this._client.request(
      routes.scoreVersion,
      { params: { metric_id: id, version: String(version) }, body },
      options,
    );
  }

  /** Make a draft version the active one (while the metric is still at the version it was drafted from). */
  promoteVersion(id: string, version: number, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(
      routes.promoteVersion,
      { params: { metric_id: id, version: String(version) } },
      options,
    );
  }

  /** People's labels of calls on the metric, newest first (filter by call or by who labelled). */
  labels(
    id: string,
    query?: RequestQuery<'metrics', 'labels'>,
    options?: RequestOptions,
  ): PagePromise<HumanLabel> {
    return this._client.list(routes.labels, { params: { metric_id: id }, query }, options);
  }

  /**
   * Every label of the metric (not paged), newest first, filtered like `labels`: each with the
   * metric's name, the call's import and conversation, `judge_value`, the judge's value for the
   * call on the metric's current version, and `judge_version`, that version (both null when not
   * scored). Resolves with the CSV text
   * (`format: 'csv'`, the default: RFC 4180 with a header row, booleans as `true`/`false`, several
   * labels joined with `|`, text a spreadsheet would run as a formula after a `'`), or with the
   * rows (`format: 'json'`).
   */
  exportLabels(
    id: string,
    query: LabelExportQuery & { format: 'json' },
    options?: RequestOptions,
  ): ApiPromise<HumanLabelExportRow[]>;
  exportLabels(
    id: string,
    query?: LabelExportQuery & { format?: 'csv' },
    options?: RequestOptions,
  ): ApiPromise<string>;
  exportLabels(
    id: string,
    query: LabelExportQuery,
    options?: RequestOptions,
  ): ApiPromise<string | HumanLabelExportRow[]>;
  exportLabels(
    id: string,
    query: LabelExportQuery = {},
    options?: RequestOptions,
  ): ApiPromise<string | HumanLabelExportRow[]> {
    const file = this._client.download(routes.exportLabels, { params: { metric_id: id }, query }, options);
    return new ApiPromise(
      file.withResponse().then(async (r) => ({
        ...r,
        data:
          query.format === 'json'
            ? ((await r.response.json()) as HumanLabelExportRow[])
            : await r.response.text(),
      })),
    );
  }

  /** Label a call (a call-import row) on the metric: your label, replacing the one you gave before. */
  setLabel(
    id: string,
    callImportRowId: string,
    body: RequestBody<'metrics', 'setLabel'>,
    options?: RequestOptions,
  ): ApiPromise<HumanLabel> {
    return this._client.request(
      routes.setLabel,
      { params: { metric_id: id, call_import_row_id: callImportRowId }, body },
      options,
    );
  }

  /** Withdraw your label of a call on the metric. */
  deleteLabel(id: string, callImportRowId: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(
      routes.deleteLabel,
      { params: { metric_id: id, call_import_row_id: callImportRowId } },
      options,
    );
  }

  /** How well the judge agrees with people's labels on a version of the metric (the current one by default). */
  agreement(
    id: string,
    query?: RequestQuery<'metrics', 'agreement'>,
    options?: RequestOptions,
  ): ApiPromise<MetricAgreement> {
    return this._client.request(routes.agreement, { params: { metric_id: id }, query }, options);
  }

  /** Promote a draft metric to active. */
  promote(id: string, options?: RequestOptions): ApiPromise<Metric> {
    return this._client.request(routes.promote, { params: { metric_id: id } }, options);
  }

  /** Delete a metric and its children. */
  delete(id: string, options?: RequestOptions): ApiPromise<void> {
    return this._client.request(routes.delete, { params: { metric_id: id } }, options);
  }
}
