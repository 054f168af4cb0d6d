/**
 * Keeping credentials out of logs and error messages. Providers never log headers or base URLs
 * (only names and hosts); any known secret string found in provider text (some gateways echo
 * the key they rejected) is masked as `[redacted]` before it is logged or returned.
 */

const SECRET_HEADER = /authorization|api[-_]?key|token|secret|password|cookie|signature|auth/i;
const MASK = '[redacted]';

/** Whether a header of this name carries a credential. */
export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER.test(name);
}

/**
 * The secret strings to scrub for a set of outgoing headers: every credential-like header value,
 * and its token part when it carries a scheme (`Bearer sk-...` -> `sk-...`). Short values are
 * ignored so that masking does not mangle ordinary text.
 */
export function secretsOf(
  headers: Readonly<Record<string, string>>,
  extra: readonly string[] = [],
): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= 6) found.add(trimmed);
  };
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeaderName(name)) continue;
    add(value);
    add(value.replace(/^(bearer|basic|token)\s+/i, ''));
  }
  for (const value of extra) add(value);
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of every secret masked. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}
