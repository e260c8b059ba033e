import { execute } from './service.js';

export function process(value: number): number {
  return execute(value);
}
