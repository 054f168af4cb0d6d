import { ApiPromise, type ApiResponse } from './api-promise.js';
import { VoiceEvalError } from './errors.js';

/** Most items `toArray` collects, however large `limit` is. */
export const TO_ARRAY_MAX = 10_000;

/** The wire shape of a list: `{ items, total, page, page_size }`. */
export interface PageData<Item> {
  items: Item[];
  total: number;
  page: number;
  page_size: number;
}

/** Fetches page `n` of the same list with the same filters. */
export type PageFetcher<Item> = (page: number) => PagePromise<Item>;

/** One page of a list. `for await` over a page walks it and every later page. */
export class Page<Item> implements PageData<Item>, AsyncIterable<Item> {
  /** The items of this page, newest first. */
  readonly items: Item[];
  /** Items matching the filters, across all pages. */
  readonly total: number;
  /** This page's number, from 1. */
  readonly page: number;
  /** Items per page. */
  readonly page_size: number;
  readonly #fetchPage: PageFetcher<Item>;

  constructor(data: PageData<Item>, fetchPage: PageFetcher<Item>) {
    this.items = data.items;
    this.total = data.total;
    this.page = data.page;
    this.page_size = data.page_size;
    this.#fetchPage = fetchPage;
  }

  /** True when a later page holds more items. */
  hasNextPage(): boolean {
    return this.items.length > 0 && this.page * this.page_size < this.total;
  }

  /** Fetches the next page; throws when there is none (check `hasNextPage()` first). */
  getNextPage(): PagePromise<Item> {
    if (!this.hasNextPage()) throw new VoiceEvalError('No next page: check hasNextPage() first.');
    return this.#fetchPage(this.page + 1);
  }

  /** This page, then each later page as it is fetched. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/**
 * What `list()` returns: await it for the first `Page`, or `for await` it for every item across
 * pages; `toArray({ limit })` collects items up to a limit.
 */
export class PagePromise<Item> extends ApiPromise<Page<Item>> implements AsyncIterable<Item> {
  /** Wraps a raw page request so it resolves to a `Page` that can fetch its neighbours. */
  static from<Item>(
    responsePromise: Promise<ApiResponse<PageData<Item>>>,
    fetchPage: PageFetcher<Item>,
  ): PagePromise<Item> {
    return new PagePromise(responsePromise.then((r) => ({ ...r, data: new Page(r.data, fetchPage) })));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const page = await this;
    yield* page;
  }

  /**
   * Collects items across pages until `limit` items (at most 10,000) or the end of the list.
   * The limit is required so a large list never loads by accident.
   */
  async toArray(options: { limit: number }): Promise<Item[]> {
    const limit = options?.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > TO_ARRAY_MAX) {
      throw new VoiceEvalError(`toArray needs a whole-number limit from 1 to ${TO_ARRAY_MAX}.`);
    }
    const out: Item[] = [];
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}
