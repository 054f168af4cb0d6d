import type { CallImportParameterType } from '@voice-eval/contract';

/** A cell read as its parameter's type: the stored text (null for an empty cell), or why it is unreadable. */
export type ReadValue = { ok: true; value: string | null } | { ok: false; message: string };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);
/** Days between the spreadsheet epoch (1899-12-30) and the Unix epoch. */
const EXCEL_EPOCH_DAYS = 25_569;
const MS_PER_DAY = 86_400_000;
/** Longest conversation id kept. */
export const MAX_CONVERSATION_ID_LENGTH = 256;

const fail = (message: string): ReadValue => ({ ok: false, message });
const ok = (value: string | null): ReadValue => ({ ok: true, value });

const asNumber = (text: string, what: string, min = Number.NEGATIVE_INFINITY): ReadValue => {
  const n = Number(text);
  if (!NUMBER.test(text) || !Number.isFinite(n)) return fail(`"${text}" is not ${what}`);
  return n < min ? fail(`"${text}" must be at least ${min}`) : ok(String(n));
};

const asDatetime = (raw: unknown, text: string): ReadValue => {
  // spreadsheet cells hold dates as day serials
  const ms = typeof raw === 'number' ? (raw - EXCEL_EPOCH_DAYS) * MS_PER_DAY : Date.parse(text);
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15
    ? ok(new Date(ms).toISOString())
    : fail(`"${text}" is not a date-time`);
};

const asUrl = (text: string): ReadValue => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? ok(url.href)
      : fail(`"${text}" is not an http(s) URL`);
  } catch {
    return fail(`"${text}" is not a URL`);
  }
};

const asPhone = (text: string): ReadValue => {
  const compact = text.replace(/[\s().-]/g, '');
  return /^\+?\d{3,15}$/.test(compact) ? ok(compact) : fail(`"${text}" is not a phone number`);
};

const asJson = (text: string): ReadValue => {
  try {
    JSON.parse(text);
    return ok(text);
  } catch {
    return fail('The value is not valid JSON');
  }
};

const asBoolean = (text: string): ReadValue => {
  const lower = text.toLowerCase();
  if (TRUE.has(lower)) return ok('true');
  return FALSE.has(lower) ? ok('false') : fail(`"${text}" is not a boolean`);
};

const asConversationId = (text: string): ReadValue =>
  text.length > MAX_CONVERSATION_ID_LENGTH
    ? fail(`The conversation id is longer than ${MAX_CONVERSATION_ID_LENGTH} characters`)
    : ok(text);

/**
 * Reads a cell as a parameter type and normalises it: numbers in canonical form, booleans as
 * `true`/`false` (from true/false, yes/no, y/n, 1/0), date-times as ISO 8601 UTC (spreadsheet day
 * serials included), phone numbers without separators, URLs as parsed. Empty cells are null.
 */
export const readValue = (type: CallImportParameterType, raw: unknown): ReadValue => {
  if (raw === null || raw === undefined) return ok(null);
  const text = (raw instanceof Date ? raw.toISOString() : String(raw)).trim();
  if (text === '') return ok(null);
  switch (type) {
    case 'number':
      return asNumber(text, 'a number');
    case 'duration_seconds':
      return asNumber(text, 'a duration in seconds', 0);
    case 'boolean':
      return asBoolean(text);
    case 'datetime':
      return asDatetime(raw, text);
    case 'json':
      return asJson(text);
    case 'recording_url':
      return asUrl(text);
    case 'phone_number':
      return asPhone(text);
    case 'conversation_id':
      return asConversationId(text);
    default:
      return ok(text);
  }
};
