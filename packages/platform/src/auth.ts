import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createDecoder, createSigner, createVerifier } from 'fast-jwt';
import { ConfigError } from './config';
import { HireloopError } from './errors';

export const DEV_JWT_SECRET = 'hireloop-dev-secret';

const ClaimId = Type.String({ minLength: 1, maxLength: 128 });

/**
 * The claims hireloop reads from a token: the user as `sub` (or `userId`), the tenant as `org` (or
 * `orgId`: ARCHITECTURE §7 says the token carries userId and orgId, so a client minting its own tokens may
 * name them so), and an optional `role`.
 */
export const TokenClaims = Type.Object({
  sub: Type.Optional(ClaimId),
  userId: Type.Optional(ClaimId),
  org: Type.Optional(ClaimId),
  orgId: Type.Optional(ClaimId),
  role: Type.Optional(Type.String({ maxLength: 32 })),
});
export type TokenClaims = Static<typeof TokenClaims>;

/**
 * The caller a verified token's claims name, or why they name none: each of user and org given under
 * either of its two names, the same value where both are given. Pure.
 */
export function principalOfClaims(claims: unknown): Principal {
  if (!Value.Check(TokenClaims, claims)) {
    throw new HireloopError('UNAUTHORIZED', 'invalid token: its claims sub/userId, org/orgId and role must be short strings');
  }
  const one = (a: string | undefined, b: string | undefined, [first, second]: [string, string]): string => {
    if (a !== undefined && b !== undefined && a !== b) {
      throw new HireloopError('UNAUTHORIZED', `invalid token: its ${first} and ${second} claims differ`);
    }
    const value = a ?? b;
    if (value === undefined) throw new HireloopError('UNAUTHORIZED', `token lacks the ${first} (or ${second}) claim`);
    return value;
  };
  const userId = one(claims.sub, claims.userId, ['sub', 'userId']);
  const orgId = one(claims.org, claims.orgId, ['org', 'orgId']);
  return { userId, orgId, ...(claims.role ? { role: claims.role } : {}) };
}

export interface Principal {
  userId: string;
  orgId: string;
  role?: string;
}

/** `JWT_SECRET`; outside production it defaults to the dev secret, in production its absence stops the service. */
export function loadJwtSecret(env: Record<string, string | undefined> = process.env): string {
  const secret = env.JWT_SECRET;
  if (secret) return secret;
  if (env.NODE_ENV === 'production') throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  return DEV_JWT_SECRET;
}

export function signToken(principal: Principal, secret: string, expiresIn = '12h'): string {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn });
  return sign({ sub: principal.userId, org: principal.orgId, ...(principal.role ? { role: principal.role } : {}) });
}

/** Verifies an HS256 token and its claims; any failure is UNAUTHORIZED with the reason. */
export function tokenVerifier(secret: string): (token: string) => Principal {
  const verify = createVerifier({ key: secret, algorithms: ['HS256'] });
  return (token) => {
    let claims: unknown;
    try {
      claims = verify(token);
    } catch (error) {
      throw new HireloopError('UNAUTHORIZED', `invalid token: ${(error as Error).message}`);
    }
    return principalOfClaims(claims);
  };
}

const decode = createDecoder();
/** When a token (already verified) expires, in ms since the epoch; undefined when it says none. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const exp = (decode(token) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization: Bearer …` header, if any. */
export const bearer = (header: string | undefined): string | undefined => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1];
