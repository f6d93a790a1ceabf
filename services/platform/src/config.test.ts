import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, Port, loadConfig } from './config.js';
import { loadHostConfig, serviceAddress } from './host/host-config.js';

const Schema = Type.Object({
  SERVICE_URL: Type.String({ pattern: '^https?://', description: 'where the service lives' }),
  SERVICE_PORT: Port('listening port', 8080),
  SERVICE_DEBUG: Type.Boolean({ default: false }),
});

describe('loadConfig', () => {
  it('converts strings and applies defaults', () => {
    expect(loadConfig(Schema, { SERVICE_URL: 'http://x', SERVICE_PORT: '9000', SERVICE_DEBUG: 'true' })).toEqual({
      SERVICE_URL: 'http://x',
      SERVICE_PORT: 9000,
      SERVICE_DEBUG: true,
    });
    expect(loadConfig(Schema, { SERVICE_URL: 'http://x' }).SERVICE_PORT).toBe(8080);
  });

  it('names a missing variable', () => {
    expect(() => loadConfig(Schema, {})).toThrow('SERVICE_URL is required but not set');
  });

  it('treats an empty variable as unset', () => {
    expect(() => loadConfig(Schema, { SERVICE_URL: '' })).toThrow('SERVICE_URL is required but not set');
  });

  it('names a malformed variable with the value given and its description', () => {
    try {
      loadConfig(Schema, { SERVICE_URL: 'ftp://x', SERVICE_PORT: 'eighty' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toMatch(/SERVICE_URL .*\(got "ftp:\/\/x"\): where the service lives/);
      expect(message).toMatch(/SERVICE_PORT .*\(got "eighty"\)/);
    }
  });
});

describe('loadHostConfig', () => {
  it('runs standalone on PGlite and the in-memory bus by default', () => {
    const config = loadHostConfig({});
    expect(config.bus).toEqual({ adapter: 'memory' });
    expect(config.database).toEqual({ driver: 'pglite', dataDir: './.data' });
  });

  it('requires Kafka brokers and a database URL when distributed', () => {
    expect(() => loadHostConfig({ PARLANCE_MODE: 'distributed' })).toThrow(
      /KAFKA_BROKERS is required when BUS_ADAPTER is kafka[\s\S]*DATABASE_URL is required when DATABASE_DRIVER is postgres/,
    );
  });

  it('rejects an unknown mode by name', () => {
    expect(() => loadHostConfig({ PARLANCE_MODE: 'cluster' })).toThrow(/PARLANCE_MODE/);
  });

  it('rejects brokers that are not host:port', () => {
    expect(() => loadHostConfig({ BUS_ADAPTER: 'kafka', KAFKA_BROKERS: 'localhost' })).toThrow(/KAFKA_BROKERS must be host:port/);
  });

  it('requires every service address when distributed', () => {
    const config = loadHostConfig({ PARLANCE_MODE: 'distributed', KAFKA_BROKERS: 'k:9092', DATABASE_URL: 'postgres://x/y' });
    expect(() => serviceAddress('scoring', config, {})).toThrow('SCORING_GRPC_ADDR is required in distributed mode');
    expect(serviceAddress('scoring', config, { SCORING_GRPC_ADDR: '10.0.0.5:50051' })).toBe('10.0.0.5:50051');
  });

  it('finds a service at its own address or at this process', () => {
    const config = loadHostConfig({ GRPC_PORT: '6000' });
    expect(serviceAddress('scoring', config, {})).toBe('127.0.0.1:6000');
    expect(serviceAddress('scoring', config, { SCORING_GRPC_ADDR: 'scoring:50051' })).toBe('scoring:50051');
    expect(() => serviceAddress('scoring', config, { SCORING_GRPC_ADDR: 'scoring' })).toThrow('SCORING_GRPC_ADDR must be host:port');
  });
});

describe('trace export settings', () => {
  it('needs an endpoint for the otlp exporter', () => {
    expect(() => loadHostConfig({ OTEL_TRACES_EXPORTER: 'otlp' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT is required when OTEL_TRACES_EXPORTER is otlp');
    expect(loadHostConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).OTEL_TRACES_EXPORTER).toBe('otlp');
  });
});

describe('secret settings', () => {
  it('names a malformed secret without repeating its value', () => {
    const schema = Type.Object({ API_SECRET: Type.String({ minLength: 16, secret: true }) });
    try {
      loadConfig(schema, { API_SECRET: 'hunter2' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('API_SECRET');
      expect((error as Error).message).toContain('"***"');
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});
