import * as currency from '../currency.js';

export function summary(total: number): string {
  return currency.formatCurrency(total);
}
