import { logLevel } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaLogLevel } from '../src/kafka';

// the lines kafkajs 2.2.4 writes, as a service started beside a broker that had just started logged them
const answer = (error: string) => ({ message: 'Response InitProducerId(key: 22, version: 1)', error, correlationId: 2 });

describe('the level of a kafkajs log line', () => {
  it('given a broker answer kafkajs retries by itself (a coordinator loading, not the leader), when logged, then it is a warning', () => {
    expect(
      kafkaLogLevel(logLevel.ERROR, answer("The coordinator is loading and hence can't process requests for this group")),
    ).toBe('warn');
    expect(kafkaLogLevel(logLevel.ERROR, answer('This server is not the leader for that topic-partition'))).toBe('warn');
    expect(kafkaLogLevel(logLevel.ERROR, answer('This is not the correct coordinator for this group'))).toBe('warn');
  });

  it('given a broker answer kafkajs does not retry (a refused authorisation, a record too large), when logged, then it stays an error', () => {
    expect(kafkaLogLevel(logLevel.ERROR, answer('Not authorized to access topics: [Topic authorization failed]'))).toBe('error');
    expect(
      kafkaLogLevel(
        logLevel.ERROR,
        answer('The request included a message larger than the max message size the server will accept'),
      ),
    ).toBe('error');
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Failed to send messages', error: new Error('boom') })).toBe('error');
  });

  it('given a consumer that crashed on an answer kafkajs retries, when it is restarted, then the crash and the restart are warnings', () => {
    const crash = {
      message: "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      groupId: 'trigger-router',
    };
    expect(kafkaLogLevel(logLevel.ERROR, crash)).toBe('warn');
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Restarting the consumer in 100ms', groupId: 'trigger-router' })).toBe(
      'warn',
    );
  });

  it('given a producer send refused with an answer kafkajs retries, when it is sent again, then the refusal is a warning', () => {
    const refused = { message: 'Failed to send messages: This server is not the leader for that topic-partition', retryCount: 0 };
    expect(kafkaLogLevel(logLevel.ERROR, refused)).toBe('warn');
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Failed to send messages: Connection timeout', retryCount: 0 })).toBe(
      'error',
    );
  });

  it('given a crash after its retries ran out, or on an answer kafkajs does not retry, when logged, then it stays an error', () => {
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Crash: KafkaJSNumberOfRetriesExceeded: Connection timeout' })).toBe('error');
    expect(
      kafkaLogLevel(logLevel.ERROR, {
        message: 'Crash: KafkaJSProtocolError: Not authorized to access group: Group authorization failed',
      }),
    ).toBe('error');
  });

  it('given a line below error, when logged, then it keeps its own level', () => {
    expect(kafkaLogLevel(logLevel.WARN, answer('This server is not the leader for that topic-partition'))).toBe('warn');
    expect(kafkaLogLevel(logLevel.INFO, { message: 'Consumer has joined the group' })).toBe('info');
  });
});
