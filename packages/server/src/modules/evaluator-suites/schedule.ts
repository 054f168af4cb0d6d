import { CronExpressionParser } from 'cron-parser';
import { ApiError } from '../../errors.js';

/**
 * Suite schedules (scheduled runs): a 5-field cron expression evaluated in UTC, a flag that switches it
 * on, and `next_run_at`, the slot the scheduler starts next. Pure functions over cron-parser.
 */

const invalid = (path: string, message: string) =>
  new ApiError('validation_failed', `Invalid schedule: ${message}`, { errors: [{ path, message }] });

const parse = (expression: string, currentDate: Date) =>
  CronExpressionParser.parse(expression, { tz: 'UTC', currentDate });

/**
 * Checks a cron expression as a suite schedule: exactly 5 fields (cron-parser also takes 6 with
 * seconds, fewer, and `@daily`-style aliases, which would read as something else than the user
 * meant) and no `H`, whose random minute would differ on every parse and so between instances.
 * Throws 422 `validation_failed` on `path` with the parser's message.
 */
export const assertValidSchedule = (expression: string, now: Date, path = 'body.schedule'): void => {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw invalid(
      path,
      `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`,
    );
  }
  if (/h/i.test(expression.replace(/[a-z]{3}/gi, ''))) {
    throw invalid(path, 'H (hashed values) is not supported: every instance must compute the same slots');
  }
  try {
    parse(expression, now).next();
  } catch (error) {
    throw invalid(path, (error as Error).message);
  }
};

/** The first slot of the schedule strictly after `after`. */
export const nextSlotAfter = (expression: string, after: Date): Date =>
  parse(expression, after).next().toDate();

/** The latest slot of the schedule at or before `at` (cron-parser's `prev` is strictly before). */
export const latestSlotAtOrBefore = (expression: string, at: Date): Date =>
  parse(expression, new Date(at.getTime() + 1))
    .prev()
    .toDate();

/** A suite's stored schedule settings. */
export type ScheduleState = { schedule: string | null; schedule_enabled: boolean; next_run_at: Date | null };

/**
 * The schedule columns after a write of `schedule` and/or `schedule_enabled` over `current` (a new
 * suite: no schedule, disabled). `next_run_at` is the next slot after `now` when the schedule is on,
 * null when off; it is kept as it is when neither value changes, so a due slot is not skipped by an
 * unrelated update. An enabled schedule needs an expression (422).
 */
export const scheduleColumns = (
  write: { schedule?: string | null; schedule_enabled?: boolean },
  current: ScheduleState,
  now: Date,
): Partial<ScheduleState> => {
  if (write.schedule === undefined && write.schedule_enabled === undefined) return {};
  const schedule = write.schedule === undefined ? current.schedule : write.schedule;
  const enabled = write.schedule_enabled ?? current.schedule_enabled;
  if (write.schedule) assertValidSchedule(write.schedule, now);
  if (enabled && !schedule) {
    const message = 'schedule_enabled needs a schedule (a 5-field cron expression)';
    throw new ApiError('validation_failed', message, {
      errors: [{ path: write.schedule === null ? 'body.schedule' : 'body.schedule_enabled', message }],
    });
  }
  const unchanged = schedule === current.schedule && enabled === current.schedule_enabled;
  const next_run_at = unchanged
    ? current.next_run_at
    : enabled && schedule
      ? nextSlotAfter(schedule, now)
      : null;
  return { schedule, schedule_enabled: enabled, next_run_at };
};
