import { describe, expect, it } from 'vitest';
import { AdmissionEvents, allTopicNames, carries, dlqName, Topics, topicFor, topicList, topicOf } from '../src/topics';

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
      ['org-connections', 'orgId'],
    ]);
  });

  it('gives each topic a DLQ and applies the prefix to both', () => {
    expect(dlqName(Topics.triggers.name)).toBe('triggers.dlq');
    const names = allTopicNames('run1.');
    expect(names).toHaveLength(20);
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

  it('carries an org’s connection changes on org-connections, keyed by org', () => {
    expect(topicOf('ConnectionsChanged')).toMatchObject({ name: 'org-connections', key: 'orgId' });
  });

  it('publishes the events that move a run’s admission on execution-result, every other event on execution-events', () => {
    for (const event of AdmissionEvents) {
      expect(topicFor({ type: 'ExecutionEvent', event }).name).toBe('execution-result');
    }
    for (const event of ['progress', 'node_enter', 'queued', 'tool_called', 'approval_requested']) {
      expect(topicFor({ type: 'ExecutionEvent', event }).name).toBe('execution-events');
    }
    expect(topicFor({ type: 'ExecutionResult' }).name).toBe('execution-result');
    expect(topicFor({ type: 'HILPrompt' }).name).toBe('hil-prompt');
    // an ExecutionEvent's main topic stays execution-events; execution-result accepts it too
    expect(topicOf('ExecutionEvent').name).toBe('execution-events');
    expect(carries(Topics.executionResult, 'ExecutionEvent')).toBe(true);
    expect(carries(Topics.executionResult, 'HILPrompt')).toBe(false);
  });
});
