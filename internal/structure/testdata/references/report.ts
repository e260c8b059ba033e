import { formatCurrency } from './currency.js';

const formatters = [formatCurrency];

export function report(values: number[]): string[] {
  return values.map((v) => formatters[0](v));
}
