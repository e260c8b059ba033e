import { round } from './money';

export function report(amounts: number[]): string {
  return amounts.map((a) => round(a).toFixed(2)).join(', ');
}
