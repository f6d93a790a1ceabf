import Type, { type Static, type TObject, type TProperties } from 'typebox';
import Value from 'typebox/value';

/** A configuration value that is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads environment variables against a TypeBox schema whose property names are the variable
 * names. Strings are converted to the schema's types and defaults are applied; anything that
 * still does not fit stops start-up with a message naming each offending variable. A property
 * marked `secret` in its schema options has its value masked in those messages: `secret: true`
 * shows `***`, and a function shows what it makes of the value (e.g. a URL with its password
 * masked).
 */
export function loadConfig<P extends TProperties>(
  schema: TObject<P>,
  env: NodeJS.ProcessEnv = process.env,
): Static<TObject<P>> {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties)) {
    const value = env[name];
    // An empty variable means "not set", so defaults apply and required checks fire.
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const value = Value.Convert(schema, Value.Default(schema, raw));
  if (Value.Check(schema, value)) return value as Static<TObject<P>>;

  const problems: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    if (error.keyword === 'required') {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      for (const name of missing) problems.push(`${name} is required but not set`);
      continue;
    }
    const name = error.instancePath.split('/')[1] ?? '(root)';
    const property = schema.properties[name] as { description?: string; secret?: true | ((value: string) => string) } | undefined;
    // A secret is never repeated, not even in the error that says it is malformed.
    const value = env[name];
    const secret = property?.secret;
    const given = secret === undefined || value === undefined ? JSON.stringify(value ?? null) : JSON.stringify(secret === true ? '***' : secret(value));
    const description = property?.description;
    problems.push(`${name} ${error.message} (got ${given})${description ? `: ${description}` : ''}`);
  }
  throw new ConfigError([...new Set(problems)]);
}

/** Comma-separated list, e.g. `KAFKA_BROKERS=127.0.0.1:59092,127.0.0.1:59093`. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export const Port = (description: string, fallback: number) =>
  Type.Integer({ minimum: 0, maximum: 65535, default: fallback, description });
