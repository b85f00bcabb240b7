import { HireloopError } from '@hireloop/platform';
import { describe, expect, it } from 'vitest';
import { capabilityViews, connectionSet, notModified, readableOrg, viewEtag, writableOrg } from '../src/decide';

const member = { userId: 'u1', orgId: 'acme' };
const admin = { ...member, role: 'admin' };

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof HireloopError ? error.code : 'not a HireloopError';
  }
};

describe('who may read and change which org', () => {
  it("reads the token's own org when none is named, and that org when it is named", () => {
    expect(readableOrg(member, undefined)).toBe('acme');
    expect(readableOrg(member, 'acme')).toBe('acme');
  });

  it('answers NOT_FOUND for another org, even to an admin', () => {
    expect(codeOf(() => readableOrg(admin, 'globex'))).toBe('NOT_FOUND');
    expect(codeOf(() => writableOrg(admin, 'globex'))).toBe('NOT_FOUND');
  });

  it('needs the admin role to change connections', () => {
    expect(codeOf(() => writableOrg(member, 'acme'))).toBe('FORBIDDEN');
    expect(codeOf(() => writableOrg({ ...member, role: 'viewer' }, 'acme'))).toBe('FORBIDDEN');
    expect(writableOrg(admin, 'acme')).toBe('acme');
  });
});

describe('the set of connections', () => {
  const known = new Set(['gmail', 'slack', 'http']);

  it('is deduplicated and sorted', () => {
    expect(connectionSet(['slack', 'gmail', 'slack'], known)).toEqual(['gmail', 'slack']);
    expect(connectionSet([], known)).toEqual([]);
  });

  it('refuses unknown ids, naming every one and pointing at the first', () => {
    try {
      connectionSet(['gmail', 'myspace', 'orkut', 'myspace'], known);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HireloopError);
      const e = error as HireloopError;
      expect(e.code).toBe('VALIDATION_FAILED');
      expect(e.message).toContain('"myspace", "orkut"');
      expect(e.details).toMatchObject({ field: '/providers/1', unknown: ['myspace', 'orkut'] });
    }
  });
});

describe('views and ETags', () => {
  it('marks each item connected when its provider is', () => {
    const capability = {
      id: 'gmail.send_email',
      providerId: 'gmail',
      name: 'send_email',
      description: 'send',
      risk: 'high' as const,
      inputSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
      outputSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
    };
    expect(capabilityViews([capability], new Set(['gmail']))[0]?.connected).toBe(true);
    expect(capabilityViews([capability], new Set(['slack']))[0]?.connected).toBe(false);
  });

  it('changes the ETag with either version', () => {
    expect(viewEtag(3, 1)).toBe('"c3.o1"');
    expect(new Set([viewEtag(3, 1), viewEtag(4, 1), viewEtag(3, 2)]).size).toBe(3);
  });

  it('matches If-None-Match as RFC 9110 says: lists, weak tags and *', () => {
    const etag = viewEtag(3, 1);
    expect(notModified(undefined, etag)).toBe(false);
    expect(notModified('"c3.o0"', etag)).toBe(false);
    expect(notModified(etag, etag)).toBe(true);
    expect(notModified(`"x", ${etag}`, etag)).toBe(true);
    expect(notModified(`W/${etag}`, etag)).toBe(true);
    expect(notModified('*', etag)).toBe(true);
  });
});
