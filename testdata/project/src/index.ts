export { TokenService } from './auth/tokenService.js';
export { AuthMiddleware } from './middleware/auth.js';
export { LoginController } from './controllers/login.js';
export * from './models/auth.js';
