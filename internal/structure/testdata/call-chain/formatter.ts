import { sanitize } from './helper.js';

export function format(input: string): string {
  return `[${sanitize(input)}]`;
}
