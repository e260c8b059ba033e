/** The claims carried by a signed session token. */
export interface JwtPayload {
  userId: string;
  roles: string[];
  exp: number;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface AuthResponse {
  token: string;
  expiresAt: number;
}
