import { formatCurrency } from './currency.js';

export function cartTotal(prices: number[]): string {
  return formatCurrency(prices.reduce((a, b) => a + b, 0));
}
