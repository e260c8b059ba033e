import { alpha } from './alpha.js';

export function beta(n: number): number {
  return n <= 0 ? 1 : alpha(n - 1);
}
