import { digest } from './crypto.js';

export function parse(input: string): string[];
export function parse(input: string, separator: string): string[];
export function parse(input: string, separator = ','): string[] {
  return input.split(separator).map((part) => digest(part));
}
