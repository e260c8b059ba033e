import { report } from '../src/report';

export function testReport(): boolean {
  return report([1.005]) === '1.01';
}
