import { createHmac } from 'node:crypto';

/** Signs data with HMAC-SHA256 and returns the hex digest. */
export function hmac(data: string, secret: string): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}
