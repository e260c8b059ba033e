/** Lifetime of an access token, in seconds. */
export const AUTH_TOKEN_EXPIRY = 3600;
export const ISSUER = 'scry-test';
export const MAX_LOGIN_ATTEMPTS = 5;
