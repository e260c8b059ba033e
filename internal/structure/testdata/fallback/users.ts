import { normalize } from './compose.js';

export function userKey(name: string): string {
  return 'user:' + normalize(name);
}

export const handles = ['A', 'B'].map((h) => normalize(h));
