import { Cart } from '../src/cart';

export function testTotal(): boolean {
  const cart = new Cart();
  cart.addLine({ price: 1.1, quantity: 3 });
  return cart.total() === 3.3;
}
