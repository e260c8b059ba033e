import { validate } from './validator.js';
import { format } from './formatter.js';

export function processRequest(input: string): string {
  if (!validate(input)) {
    throw new Error('invalid input');
  }
  console.log('processing', input);
  return format(input);
}
