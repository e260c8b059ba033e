export function formatCurrency(amount: number, code = 'EUR'): string {
  return `${amount.toFixed(2)} ${code}`;
}
