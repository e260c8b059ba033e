import jwt from 'jsonwebtoken';
import { JwtPayload, RefreshPayload } from '../models/auth';
import { RefreshTokenStore } from './refreshStore';
import { Logger } from '../logging';
import { AuthError } from './errors';
import * as crypto from 'crypto';
import { BaseValidator } from './base';

const TOKEN_EXPIRY = 3600;
const REFRESH_EXPIRY = 86400;
const ISSUER = 'scry-auth';

/**
 * Issues, validates and revokes JSON web tokens.
 */
export class TokenService extends BaseValidator {
  private secret: string;
  private store: RefreshTokenStore;
  private readonly logger = new Logger('tokens');
  private revoked = new Set<string>();

  constructor(secret: string, store: RefreshTokenStore) {
    super();
    this.secret = secret;
    this.store = store;
  }

  /** Returns the payload of a valid token, or null. */
  async validateToken(token: string): Promise<JwtPayload | null> {
    try {
      return jwt.verify(token, this.secret, { issuer: ISSUER }) as JwtPayload;
    } catch {
      return null;
    }
  }

  sign(userId: string): string {
    return jwt.sign({ userId }, this.secret, { expiresIn: TOKEN_EXPIRY, issuer: ISSUER });
  }

  async refresh(token: string): Promise<string> {
    const payload = (await this.store.lookup(token)) as RefreshPayload | undefined;
    if (!payload) throw new AuthError('unknown refresh token');
    return this.sign(payload.userId);
  }

  async issueRefresh(userId: string): Promise<string> {
    const token = crypto.randomBytes(32).toString('hex');
    await this.store.save(token, { userId }, REFRESH_EXPIRY);
    return token;
  }

  revoke(token: string): void {
    this.revoked.add(token);
    this.logger.info('revoked');
  }

  isRevoked(token: string): boolean {
    return this.revoked.has(token);
  }

  fingerprint(token: string): string {
    return crypto.createHash('sha256').update(token).digest('hex');
  }

  decode(token: string): JwtPayload | null {
    return jwt.decode(token) as JwtPayload | null;
  }

  expiresIn(): number {
    return TOKEN_EXPIRY;
  }

  describe(): string {
    return `${ISSUER} tokens, ${TOKEN_EXPIRY}s`;
  }
}
