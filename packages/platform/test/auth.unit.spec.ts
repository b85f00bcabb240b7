import { createSigner } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { principalOfClaims, signToken, tokenVerifier } from '../src/auth';

const refusal = (claims: unknown): string => {
  try {
    principalOfClaims(claims);
  } catch (error) {
    return `${(error as { code: string }).code} ${(error as Error).message}`;
  }
  throw new Error('expected a refusal');
};

describe('principalOfClaims: who a verified token names', () => {
  it('given sub and org, then the user and the org, with the role when there is one', () => {
    expect(principalOfClaims({ sub: 'alice', org: 'acme' })).toEqual({ userId: 'alice', orgId: 'acme' });
    expect(principalOfClaims({ sub: 'root', org: 'acme', role: 'admin', exp: 1 })).toEqual({
      userId: 'root',
      orgId: 'acme',
      role: 'admin',
    });
  });

  it('given userId and orgId, as the contract names them, then the same', () => {
    expect(principalOfClaims({ userId: 'alice', orgId: 'acme' })).toEqual({ userId: 'alice', orgId: 'acme' });
    expect(principalOfClaims({ sub: 'alice', orgId: 'acme' })).toEqual({ userId: 'alice', orgId: 'acme' });
  });

  it('given both names with one value, then that value; with two values, then refused', () => {
    expect(principalOfClaims({ sub: 'alice', userId: 'alice', org: 'acme', orgId: 'acme' })).toEqual({
      userId: 'alice',
      orgId: 'acme',
    });
    expect(refusal({ sub: 'alice', userId: 'mallory', org: 'acme' })).toBe(
      'UNAUTHORIZED invalid token: its sub and userId claims differ',
    );
    expect(refusal({ sub: 'alice', org: 'acme', orgId: 'evil' })).toBe(
      'UNAUTHORIZED invalid token: its org and orgId claims differ',
    );
  });

  it('given no user or no org, or claims that are not short strings, then refused naming them', () => {
    expect(refusal({ org: 'acme' })).toBe('UNAUTHORIZED token lacks the sub (or userId) claim');
    expect(refusal({ sub: 'alice' })).toBe('UNAUTHORIZED token lacks the org (or orgId) claim');
    expect(refusal({ sub: 7, org: 'acme' })).toMatch(/^UNAUTHORIZED invalid token: its claims/);
    expect(refusal({ sub: '', org: 'acme' })).toMatch(/^UNAUTHORIZED invalid token: its claims/);
    expect(refusal('a string')).toMatch(/^UNAUTHORIZED/);
  });
});

describe('tokenVerifier', () => {
  const SECRET = 'auth-test-secret';
  it('reads a token hireloop signed and one a client signed with userId and orgId', () => {
    const verify = tokenVerifier(SECRET);
    expect(verify(signToken({ userId: 'alice', orgId: 'acme' }, SECRET))).toEqual({ userId: 'alice', orgId: 'acme' });
    const theirs = createSigner({ key: SECRET, algorithm: 'HS256', expiresIn: 60_000 })({ userId: 'bob', orgId: 'acme' });
    expect(verify(theirs)).toEqual({ userId: 'bob', orgId: 'acme' });
    expect(() => verify(signToken({ userId: 'alice', orgId: 'acme' }, 'another-secret'))).toThrow(/invalid token/);
  });
});
