import { describe, expect, it } from 'vitest';
import { HireloopError, isPermanent } from '../src/errors';

describe('permanent or transient', () => {
  it('a hireloop error says itself whether retrying can help', () => {
    expect(isPermanent(new HireloopError('VALIDATION_FAILED', 'bad fact'))).toBe(true);
    expect(isPermanent(new HireloopError('UNAVAILABLE', 'broker away'))).toBe(false);
  });

  it('a Postgres data or integrity error is permanent: these facts cannot be stored as they are', () => {
    expect(isPermanent(Object.assign(new Error('invalid input syntax'), { code: '22P02' }))).toBe(true);
    expect(isPermanent(Object.assign(new Error('violates check constraint'), { code: '23514' }))).toBe(true);
  });

  it('a connection refused, a server shutting down or an unknown error is transient', () => {
    expect(isPermanent(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isPermanent(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      false,
    );
    expect(isPermanent(new Error('something went wrong'))).toBe(false);
    expect(isPermanent(undefined)).toBe(false);
  });
});
