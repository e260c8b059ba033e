import { TokenService } from '../auth/tokenService.js';
import type { JwtPayload } from '../models/auth.js';

export interface Request {
  headers: Record<string, string | undefined>;
  user?: JwtPayload;
}

/** Rejects requests without a valid bearer token. */
export class AuthMiddleware {
  constructor(private readonly tokens: TokenService) {}

  verify(req: Request): boolean {
    const header = req.headers['authorization'] ?? '';
    const user = this.tokens.validateToken(header.replace(/^Bearer /, ''));
    if (!user) {
      return false;
    }
    req.user = user;
    return true;
  }
}
