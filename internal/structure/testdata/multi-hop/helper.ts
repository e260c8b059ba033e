export function compute(value: number): number {
  return value * 2;
}
