import { formatCurrency as money } from './currency.js';

export const receiptFooter = (total: number): string => `Paid ${money(total)}`;
