import { TokenService } from '../auth/tokenService.js';
import { MAX_LOGIN_ATTEMPTS, AUTH_TOKEN_EXPIRY } from '../config/constants.js';
import type { AuthResponse, LoginRequest } from '../models/auth.js';

const attempts = new Map<string, number>();

/** Handles username/password logins and hands out tokens. */
export class LoginController {
  constructor(private readonly tokens: TokenService, private readonly check: (r: LoginRequest) => boolean) {}

  handle(req: LoginRequest): AuthResponse | null {
    const tries = (attempts.get(req.username) ?? 0) + 1;
    attempts.set(req.username, tries);
    if (tries > MAX_LOGIN_ATTEMPTS || !this.check(req)) {
      return null;
    }
    const token = this.tokens.issueToken(req.username, ['user']);
    return { token, expiresAt: Date.now() + AUTH_TOKEN_EXPIRY * 1000 };
  }
}
