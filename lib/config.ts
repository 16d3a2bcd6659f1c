import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ConfigSchema, ConfigVariables, Settings, type Config, type ConfigEnv, type Conversion } from '../schemas/config.ts';

export type { Config };

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`invalid configuration: ${variable} ${message}`);
  }
}

type VariableName = keyof typeof Settings;

/** Reads and validates the environment once; a wrong value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const name of Object.keys(ConfigVariables) as VariableName[]) {
    const schema = ConfigVariables[name];
    const given = env[name];
    if (given === undefined || given === '') {
      raw[name] = schema.default;
      continue;
    }
    const isInteger = schema.type === 'integer';
    if (isInteger && !/^-?\d+$/.test(given.trim())) {
      throw new ConfigError(name, `must be an integer, got ${JSON.stringify(given)}`);
    }
    raw[name] = isInteger ? Number(given.trim()) : given.trim();
  }
  const firstError = Value.Errors(ConfigSchema, raw).First();
  if (firstError) {
    const name = firstError.path.replace(/^\//, '') || 'environment';
    throw new ConfigError(name, `${firstError.message}, got ${JSON.stringify(raw[name])}`);
  }
  const v = raw as ConfigEnv;
  if (v.ROUTING_BACKEND === 'valhalla' && v.VALHALLA_URL === '') {
    throw new ConfigError('VALHALLA_URL', 'is required when ROUTING_BACKEND=valhalla');
  }
  const config: Record<string, unknown> = {};
  for (const name of Object.keys(Settings) as VariableName[]) {
    const { key, conversion } = Settings[name];
    config[key] = convert(conversion, v[name], v);
  }
  return config as Config;
}

function convert(conversion: Conversion, value: unknown, env: ConfigEnv): unknown {
  switch (conversion) {
    case 'as-is': return value;
    case 'seconds': return (value as number) * 1000;
    case 'kilometres': return (value as number) * 1000;
    case 'megabytes': return (value as number) * 1024 * 1024;
    case 'path': return path.resolve(value as string);
    case 'optionalPath': return value === '' ? null : path.resolve(value as string);
    case 'url': return (value as string).replace(/\/+$/, '');
    case 'origin': return (value as string) || `http://localhost:${env.PORT}`;
    case 'flag': return value === 1;
    case 'emptyIsNull': return value === '' ? null : value;
  }
}
