import type { PageQuery } from '@voice-eval/contract';
import type { Knex } from 'knex';

/**
 * One page of a filtered query, newest first with `id` as the tie-break (a stable order to page), and the
 * total count of the filter. `base` must hold only the filters: no order, limit or select.
 */
export const paginate = async <Row, Item>(
  base: Knex.QueryBuilder,
  query: PageQuery,
  toItem: (row: Row) => Item,
  { createdAt = 'created_at', id = 'id' }: { createdAt?: string; id?: string } = {},
) => {
  const [rows, counted] = await Promise.all([
    base
      .clone()
      .select('*')
      .orderBy([
        { column: createdAt, order: 'desc' },
        { column: id, order: 'desc' },
      ])
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    base.clone().count({ total: '*' }),
  ]);
  return {
    items: (rows as Row[]).map(toItem),
    total: Number((counted as Array<{ total: number | string }>)[0]?.total ?? 0),
    page: query.page,
    page_size: query.page_size,
  };
};
