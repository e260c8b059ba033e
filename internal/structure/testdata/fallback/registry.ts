import { normalize } from './compose.js';

console.log(normalize(' Registry '));

export class Registry {
  key = normalize('registry');

  lookup(name: string): string {
    return normalize(name);
  }
}
