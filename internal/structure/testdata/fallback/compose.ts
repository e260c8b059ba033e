export type Normalizer = (s: string) => string;

export function compose(...fns: Normalizer[]): Normalizer {
  return (s) => fns.reduce((acc, f) => f(acc), s);
}

export function trim(s: string): string {
  return s.trim();
}

export function lower(s: string): string {
  return s.toLowerCase();
}

// No function body of its own: the compiler's call hierarchy has no entry
// for it, so scry falls back to references and definitions.
export const normalize: Normalizer = compose(trim, lower);
