export * from './crypto.js';
export { hmac as sign } from './crypto.js';
export { default as Logger } from './logger.js';
export type { Settings } from './settings.js';
export { defaults } from './settings.js';
