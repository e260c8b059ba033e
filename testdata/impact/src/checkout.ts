import { Cart } from './cart';

export function checkout(cart: Cart): string {
  const total = cart.total();
  return `charged ${total}`;
}
