import { bearer, HireloopError, type Principal, tokenVerifier } from '@hireloop/platform';
import { checker, Id } from '@hireloop/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Turns a bearer token into the caller, or throws UNAUTHORIZED saying why. */
export type Verify = (token: string) => Principal;

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller, from the bearer token; null on a route whose auth is optional and no valid token came */
    principal: Principal | null;
    /** why the token of an optional-auth request was refused (told to the socket as an `error` frame) */
    authError: HireloopError | null;
  }
  interface FastifyContextConfig {
    /** `optional`: the request goes on without a valid token (the chat socket asks for one per frame) */
    auth?: 'required' | 'optional';
  }
}

const isId = checker(Id);

/**
 * HS256 tokens through the platform's verifier, whose `sub` and `org` must also be valid ids: they
 * go into every fact's correlation, which would otherwise refuse them only at publish time.
 */
export function gatewayVerifier(secret: string): Verify {
  const verify = tokenVerifier(secret);
  return (token) => {
    const principal = verify(token);
    if (!isId.Check(principal.userId) || !isId.Check(principal.orgId)) {
      throw new HireloopError('UNAUTHORIZED', 'invalid token: sub and org must be ids (letters, digits and ._:@-)');
    }
    return principal;
  };
}

/** The caller of a route that requires auth (the hook has already refused the others). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new HireloopError('UNAUTHORIZED', 'send a bearer token: Authorization: Bearer <JWT>');
  return request.principal;
}

const queryToken = (request: FastifyRequest): string | undefined => {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
};

/**
 * Every request is authenticated by its `Authorization: Bearer` token (the chat upgrade may also
 * use `?token=`). Required by default: no token or a bad one is 401 before anything else runs.
 */
export const auth = fp(
  async (app: FastifyInstance, { verify }: { verify: Verify }) => {
    app.decorateRequest('principal', null);
    app.decorateRequest('authError', null);
    app.addHook('onRequest', async (request) => {
      const optional = request.routeOptions.config.auth === 'optional';
      const token = bearer(request.headers.authorization) ?? (optional ? queryToken(request) : undefined);
      if (!token) {
        if (optional) return;
        throw new HireloopError('UNAUTHORIZED', 'send a bearer token: Authorization: Bearer <JWT>');
      }
      try {
        request.principal = verify(token);
      } catch (error) {
        if (!optional) throw error;
        request.authError =
          error instanceof HireloopError
            ? error
            : new HireloopError('UNAUTHORIZED', 'invalid token', undefined, { cause: error });
      }
    });
  },
  { name: 'hireloop-gateway-auth' },
);
