import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'voice-eval';
const AUDIENCE = 'voice-eval-api';
/** The only algorithm accepted: tokens with `alg: none` or any other algorithm are refused. */
const ALGORITHM = 'HS256';

/**
 * What an access token says. `sessionId` (the JWT `sid`) is the refresh-token family the token was
 * issued with: revoking the family (logout, reuse detection) ends the token too. Tokens minted
 * outside a login (tests, tools) have none and live until they expire.
 */
export type AccessClaims = { userId: string; organizationId: string; sessionId?: string };

/** Signs a short-lived access token bound to one organization (and a session, when given). */
export const signAccessToken = async (
  secret: string,
  claims: AccessClaims,
  ttlSeconds: number,
  now: Date,
): Promise<string> => {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    org: claims.organizationId,
    ...(claims.sessionId ? { sid: claims.sessionId } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(secret));
};

/** Verifies an access token (signature, algorithm, issuer, audience, expiry); null when invalid. */
export const verifyAccessToken = async (
  secret: string,
  token: string,
  now: Date,
): Promise<AccessClaims | null> => {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'string') return null;
    if (payload.sid !== undefined && typeof payload.sid !== 'string') return null;
    return {
      userId: payload.sub,
      organizationId: payload.org,
      ...(payload.sid ? { sessionId: payload.sid } : {}),
    };
  } catch {
    return null;
  }
};

/** A new opaque refresh token; only its hash is stored. */
export const newRefreshToken = (): string => `vert_${randomBytes(32).toString('base64url')}`;

/** SHA-256 hex of a secret token (refresh tokens, API keys, invitation tokens). */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
