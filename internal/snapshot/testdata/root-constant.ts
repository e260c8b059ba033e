import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Config, Profile } from './types';

export const DEFAULT_PROFILE = 'default';
export const CONFIG_FILE = '.apprc.yaml';
const MAX_DEPTH = 8;
const ENV_PREFIX = 'APP_';
const TIMEOUT_MS = 5_000;

/** Loads the configuration file found in dir or its parents. */
export async function loadConfig(dir: string, profile: string): Promise<Config> {
  const ENV_PREFIX = `${profile.toUpperCase()}_`;
  let current = dir;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const file = path.join(current, CONFIG_FILE);
    try {
      const raw = parseYaml(await readFile(file, 'utf8')) as Record<string, Profile>;
      return { profile, prefix: ENV_PREFIX, ...raw[profile] };
    } catch {
      current = path.dirname(current);
    }
  }
  throw new Error(`no ${CONFIG_FILE} within ${MAX_DEPTH} levels of ${dir}`);
}

export function envOverrides(env: NodeJS.ProcessEnv): Partial<Config> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(ENV_PREFIX) && value !== undefined) {
      out[key.slice(ENV_PREFIX.length).toLowerCase()] = value;
    }
  }
  return out as Partial<Config>;
}

export function withTimeout<T>(work: Promise<T>, ms = TIMEOUT_MS): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms)),
  ]);
}
