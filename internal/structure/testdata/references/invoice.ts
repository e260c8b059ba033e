import { formatCurrency } from './currency.js';

export function invoiceLine(label: string, amount: number): string {
  return `${label}: ${formatCurrency(amount)}`;
}

export function invoiceTotal(amount: number): string {
  return formatCurrency(amount, 'USD');
}
