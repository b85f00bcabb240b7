import { describe, expect, it } from 'vitest';
import { allTopicNames, dlqName, Topics, topicList, topicOf } from '../src/topics';

describe('topic registry', () => {
  it('names every topic of the contract with its key', () => {
    expect(topicList.map((t) => [t.name, t.key])).toEqual([
      ['ui-messages', 'conversationId'],
      ['triggers', 'triggerId'],
      ['runIntent', 'executionId'],
      ['hil-prompt', 'executionId'],
      ['hil-response', 'executionId'],
      ['execution-result', 'executionId'],
      ['execution-events', 'executionId'],
      ['employees', 'employeeId'],
      ['org-policies', 'orgId'],
    ]);
  });

  it('gives each topic a DLQ and applies the prefix to both', () => {
    expect(dlqName(Topics.triggers.name)).toBe('triggers.dlq');
    const names = allTopicNames('run1.');
    expect(names).toHaveLength(18);
    expect(names).toContain('run1.hil-prompt');
    expect(names).toContain('run1.hil-prompt.dlq');
    expect(names.every((n) => n.startsWith('run1.'))).toBe(true);
  });

  it('carries both employee lifecycle facts on the employees topic', () => {
    expect(topicOf('EmployeeActivated').name).toBe('employees');
    expect(topicOf('EmployeeDeactivated').name).toBe('employees');
  });

  it('carries an org’s policy changes on org-policies, keyed by org', () => {
    expect(topicOf('PolicyChanged')).toMatchObject({ name: 'org-policies', key: 'orgId' });
  });
});
