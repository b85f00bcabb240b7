import { describe, expect, it } from 'vitest';
import { ConfigError, loadPlatformConfig, loadServiceConfig } from '../src/config';

describe('configuration', () => {
  it('defaults to the local broker, the local Postgres and six partitions', () => {
    const config = loadServiceConfig('gateway', {});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      kafkaBrokers: ['127.0.0.1:9092'],
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/hireloop',
      topicPrefix: '',
      topicPartitions: 6,
    });
  });

  it('gives every service its own default port, overridable by <SERVICE>_PORT', () => {
    expect(loadServiceConfig('trigger-router', {}).port).toBe(8081);
    expect(loadServiceConfig('event-store', {}).port).toBe(8084);
    expect(loadServiceConfig('trigger-router', { TRIGGER_ROUTER_PORT: '9999' }).port).toBe(9999);
  });

  it('reads a list of brokers', () => {
    expect(loadPlatformConfig({ KAFKA_BROKERS: '127.0.0.1:9092, 127.0.0.1:9192' }).kafkaBrokers).toEqual([
      '127.0.0.1:9092',
      '127.0.0.1:9192',
    ]);
  });

  it.each([
    [{ TOPIC_PARTITIONS: 'many' }, 'TOPIC_PARTITIONS'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ KAFKA_BROKERS: 'nohostport' }, 'KAFKA_BROKERS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TOPIC_PREFIX: 'bad prefix!' }, 'TOPIC_PREFIX'],
  ])('rejects %j naming the variable', (env, name) => {
    expect(() => loadPlatformConfig(env)).toThrow(ConfigError);
    expect(() => loadPlatformConfig(env)).toThrow(name);
  });

  it('rejects a port that is not a number', () => {
    expect(() => loadServiceConfig('supervisor', { SUPERVISOR_PORT: 'http' })).toThrow('SUPERVISOR_PORT');
  });
});
