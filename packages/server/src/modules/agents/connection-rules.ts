import type { AgentConnectionWrite } from '@voice-eval/contract';
import type { Deps } from '../../deps.js';
import { ApiError, type FieldError } from '../../errors.js';
import { createAddressPolicy } from '../../net/address-policy.js';
import { checkUrlAtSave } from '../../net/url-check.js';
import { connectionUrls } from './connection.js';

/**
 * Headers the channel sets itself or that frame the HTTP message: letting a user set them would
 * break the request or smuggle another one. `authorization` is allowed (gateways with their own
 * scheme) unless an `api_key` is sent as the Bearer token.
 */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** Visible ASCII, space and tab (RFC 9110 field values; no CR or LF). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

const headerProblems = (write: AgentConnectionWrite): FieldError[] => {
  if (write.kind === 'twilio_media_stream') {
    return write.auth_header && !HEADER_VALUE.test(write.auth_header)
      ? [{ path: 'body.connection.auth_header', message: 'Expected printable ASCII without line breaks' }]
      : [];
  }
  if (write.kind !== 'openai_chat' || !write.extra_headers) return [];
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(write.extra_headers)) {
    const path = `body.connection.extra_headers.${name}`;
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower))
      problems.push({ path, message: `The ${name} header is set by the server` });
    else if (lower === 'authorization' && write.api_key) {
      problems.push({ path, message: 'Authorization is sent from api_key; set one or the other' });
    } else if (seen.has(lower))
      problems.push({ path, message: 'Header names are case-insensitive: given twice' });
    else if (!HEADER_VALUE.test(value))
      problems.push({ path, message: 'Expected printable ASCII without line breaks' });
    seen.add(lower);
  }
  return problems;
};

/**
 * Checks a written connection before it is stored: header names and values, and every URL (http,
 * or ws for a media stream) against the server's address policy (private, loopback and
 * link-local hosts are refused unless `fetchAllowlist` names them). 422 `rule_violation` with a
 * path per problem.
 */
export const assertConnectionWrite = async (deps: Pick<Deps, 'config'>, write: AgentConnectionWrite) => {
  const policy = createAddressPolicy(deps.config.fetchAllowlist);
  const problems = headerProblems(write);
  for (const { path, url, scheme } of connectionUrls(write)) {
    const checked = await checkUrlAtSave(url, policy, { scheme });
    if (!checked.ok) problems.push({ path, message: checked.message });
  }
  if (problems.length > 0) {
    throw new ApiError('rule_violation', problems.map((p) => p.message).join('; '), { errors: problems });
  }
};
