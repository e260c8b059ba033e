import { sanitize } from './helper.js';

export function validate(input: string): boolean {
  return sanitize(input).length > 0;
}
