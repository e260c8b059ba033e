/** Rounds an amount to whole cents. */
export function round(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** Adds two amounts. */
export function add(a: number, b: number): number {
  return round(a + b);
}
