import { ISSUER } from './constants.js';

export interface ConfigProvider {
  getSecret(): string;
}

/** Reads signing configuration from the environment. */
export class AuthConfig implements ConfigProvider {
  constructor(private readonly env: Record<string, string | undefined>) {}

  getSecret(): string {
    const secret = this.env.JWT_SECRET;
    if (!secret) {
      throw new Error('JWT_SECRET is not set');
    }
    return secret;
  }

  getIssuer(): string {
    return ISSUER;
  }
}
