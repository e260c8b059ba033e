/** Trims and lower-cases user input. */
export function sanitize(input: string): string {
  return input.trim().toLowerCase();
}
