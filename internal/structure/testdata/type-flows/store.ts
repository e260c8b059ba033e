import { checkout } from './checkout.js';
import type { Receipt } from './models/receipt.js';

export async function buy(): Promise<Receipt[]> {
  const receipt = await checkout({ id: 'o1', items: [] }, { amount: 10, currency: 'EUR' });
  return [receipt];
}
