package testkit

// Signer is a workspace of two files for the shared-index tests of the
// command and the MCP server: src/crypto.ts declares hmac, and the
// documented sign in src/token.ts calls it, so that a reference crosses
// files for the structure questions a checkout answers.
func Signer() map[string]string {
	return map[string]string{
		"src/crypto.ts": "export function hmac(data: string): string {\n  return data.split('').reverse().join('');\n}\n",
		"src/token.ts":  "import { hmac } from './crypto';\n\n/** Signs a token. */\nexport function sign(token: string): string {\n  return hmac(token);\n}\n",
	}
}
