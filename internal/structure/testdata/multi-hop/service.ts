import { compute } from './helper.js';

export function execute(value: number): number {
  return compute(value) + 1;
}
