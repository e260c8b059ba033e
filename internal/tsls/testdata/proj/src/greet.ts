export interface Greeter {
  greet(name: string): string;
}

/** Says hello. */
export function hello(name: string): string {
  return "héllo 😀 " + shout(name);
}

export function shout(s: string): string {
  return s.toUpperCase();
}

export class Polite implements Greeter {
  greet(name: string): string {
    return hello(name);
  }
}
