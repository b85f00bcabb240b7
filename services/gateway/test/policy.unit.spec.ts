import { describe, expect, it } from 'vitest';
import { knownTimeZone, policyReader, policyWriter } from '../src/routes/policy';

describe('who may read and change an org policy (pure)', () => {
  it('given a token of the org, then it reads its own; another org is not found', () => {
    expect(policyReader({ userId: 'u', orgId: 'acme' }, 'acme')).toBe('acme');
    expect(() => policyReader({ userId: 'u', orgId: 'acme' }, 'globex')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
  it('given a member without the admin role, then changing is forbidden; an admin may', () => {
    expect(() => policyWriter({ userId: 'u', orgId: 'acme' }, 'acme')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(policyWriter({ userId: 'u', orgId: 'acme', role: 'admin' }, 'acme')).toBe('acme');
  });
  it('knows IANA time zones', () => {
    expect(knownTimeZone('Europe/Paris')).toBe(true);
    expect(knownTimeZone('Mars/Olympus')).toBe(false);
  });
});
