import type { Knex } from 'knex';

/* What suite runs need of suites: the round-robin cursor and the evaluators behind combinations. */

/**
 * Takes the next `n` slots of a suite's round-robin cursor in one statement: `round_robin_index`
 * advances by `n` modulo `count` and the index before the move is returned. The row lock of the
 * UPDATE serialises concurrent runs of the suite, so no two ever get the same slot.
 */
export const takeRoundRobin = async (
  db: Knex,
  suiteId: string,
  n: number,
  count: number,
): Promise<number> => {
  const result = await db.raw(
    `update evaluator_suites s
        set round_robin_index = (s.round_robin_index + ?) % ?
       from (select id, round_robin_index as before from evaluator_suites where id = ? for update) b
      where s.id = b.id
     returning b.before`,
    [n, count, suiteId],
  );
  return (result.rows[0] as { before: number }).before % count;
};

/** The evaluator (uuid) behind each combination of a suite, by combination id. */
export const combinationEvaluators = async (db: Knex, suiteId: string): Promise<Map<string, string>> => {
  const rows = (await db('evaluator_suite_combinations')
    .where({ suite_id: suiteId })
    .select('id', 'evaluator_id')) as Array<{ id: string; evaluator_id: string }>;
  return new Map(rows.map((r) => [r.id, r.evaluator_id]));
};
