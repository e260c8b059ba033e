import { process } from './middleware.js';

export function handle(raw: string): number {
  return process(Number(raw));
}
