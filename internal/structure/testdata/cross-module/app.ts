import { sign as signData, digest, defaults, type Settings } from './lib/index.js';
import Logger from './lib/logger.js';
import { parse } from './lib/parse.js';

export function signRequest(body: string): string {
  const settings: Settings = defaults();
  const logger = new Logger();
  logger.log(digest(body) + settings.level);
  return signData('secret', body);
}

export function parseBody(body: string): string[] {
  return parse(body, ';');
}
