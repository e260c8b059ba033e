import { beta } from './beta.js';

export function alpha(n: number): number {
  return n <= 0 ? 0 : beta(n - 1);
}
