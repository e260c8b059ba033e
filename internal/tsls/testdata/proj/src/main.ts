import { hello, Polite } from './greet.js';

const label = "😀😀"; export function run(): string {
  return hello("a") + new Polite().greet("b") + label;
}
