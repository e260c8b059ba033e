import { greeting } from '../src/greeting';

export function testGreeting(): boolean {
  return greeting('x') === 'hello x';
}
