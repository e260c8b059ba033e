export function initialize(name: string): string {
  return name.trim();
}
