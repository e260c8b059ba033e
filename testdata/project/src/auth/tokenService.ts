import { hmac as sign } from './crypto.js';
import { BaseValidator } from './base.js';
import { AuthConfig } from '../config/auth.js';
import { AUTH_TOKEN_EXPIRY } from '../config/constants.js';
import type { JwtPayload } from '../models/auth.js';

export class TokenService extends BaseValidator {
  private readonly config: AuthConfig;
  private issued = 0;

  constructor(config: AuthConfig) {
    super();
    this.config = config;
  }

  /** Checks a token's signature and expiry and returns its claims. */
  validateToken(token: string): JwtPayload | null {
    const [body, signature] = token.split('.');
    if (sign(body, this.config.getSecret()) !== signature) {
      this.recordFailure();
      return null;
    }
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as JwtPayload;
    return payload.exp * 1000 > Date.now() ? payload : null;
  }

  /** Issues a signed token for a user. */
  issueToken(userId: string, roles: string[]): string {
    this.issued++;
    const payload: JwtPayload = { userId, roles, exp: Math.floor(Date.now() / 1000) + AUTH_TOKEN_EXPIRY };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${sign(body, this.config.getSecret())}`;
  }
}
