import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { createSigner, createVerifier } from 'fast-jwt';
import { ConfigError } from './config';
import { HireloopError } from './errors';

export const DEV_JWT_SECRET = 'hireloop-dev-secret';

/** The claims hireloop reads from a token: `sub` is the user, `org` the tenant. */
export const TokenClaims = Type.Object({
  sub: Type.String({ minLength: 1, maxLength: 128 }),
  org: Type.String({ minLength: 1, maxLength: 128 }),
  role: Type.Optional(Type.String({ maxLength: 32 })),
});
export type TokenClaims = Static<typeof TokenClaims>;

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
    if (!Value.Check(TokenClaims, claims)) throw new HireloopError('UNAUTHORIZED', 'token lacks the sub and org claims');
    return { userId: claims.sub, orgId: claims.org, ...(claims.role ? { role: claims.role } : {}) };
  };
}

/** The token of an `Authorization: Bearer …` header, if any. */
export const bearer = (header: string | undefined): string | undefined => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1];
