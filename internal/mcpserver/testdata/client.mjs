// End-to-end check of `scry serve` with the official MCP TypeScript client.
// Usage: node client.mjs stdio|http
// Env: SCRY_BIN, SCRY_ROOT (a writable copy of a TS project), SCRY_INDEX,
//      SCRY_MCP_CLIENT (node_modules holding @modelcontextprotocol/sdk).
// Prints one JSON line of facts for the Go test; exits 1 on a failed check.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = (p) => pathToFileURL(path.join(process.env.SCRY_MCP_CLIENT, '@modelcontextprotocol/sdk/dist/esm', p)).href;
const { Client } = await import(sdk('client/index.js'));
const { StdioClientTransport } = await import(sdk('client/stdio.js'));
const { StreamableHTTPClientTransport } = await import(sdk('client/streamableHttp.js'));

const mode = process.argv[2] ?? 'stdio';
const bin = process.env.SCRY_BIN;
const root = process.env.SCRY_ROOT;
const index = process.env.SCRY_INDEX;
const failures = [];
const facts = { mode };
const check = (ok, what) => { if (!ok) failures.push(what); };
const textOf = (res) => (res.content ?? []).map((c) => c.text ?? '').join('\n');

async function connectStdio() {
  const transport = new StdioClientTransport({ command: bin, args: ['serve', '--root', root, '--index', index], stderr: 'pipe' });
  const client = new Client({ name: 'scry-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

async function startHTTP(token) {
  const child = spawn(bin, ['serve', '--root', root, '--index', index, '--http', '127.0.0.1:0', '--token', token], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stderr.on('data', (d) => {
      buf += d;
      const m = buf.match(/serving MCP at (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`scry serve exited with ${code}: ${buf}`)));
    setTimeout(() => reject(new Error('scry serve did not start: ' + buf)), 20000);
  });
  return { child, url };
}

async function exercise(client) {
  const { tools } = await client.listTools();
  facts.tools = tools.map((t) => t.name).sort();
  facts.schemaJSON = JSON.stringify(tools);

  // codebase_search: multi-content, graph first, audience and priorities.
  let progressEvents = 0;
  const res = await client.callTool({ name: 'codebase_search', arguments: { query: 'where are JWT tokens validated' } },
    undefined, { onprogress: () => { progressEvents++; } });
  check(!res.isError, 'codebase_search failed: ' + textOf(res));
  check(res.content.length >= 2, 'codebase_search: expected graph + at least one snapshot');
  check(res.content.every((c) => c.type === 'text'), 'codebase_search: non-text content');
  check(res.content.every((c) => JSON.stringify(c.annotations?.audience) === '["assistant"]'), 'codebase_search: audience must be ["assistant"]');
  check(res.content[0].annotations?.priority === 1, 'codebase_search: graph priority must be 1.0');
  check(res.content[0].text.startsWith('Search: "where are JWT tokens validated"'), 'codebase_search: graph must start with the summary line');
  const pr = res.content.slice(1).map((c) => c.annotations?.priority);
  check(pr.every((p, i) => typeof p === 'number' && p <= 1 && (i === 0 || p <= pr[i - 1])), 'codebase_search: snapshot priorities must not increase: ' + pr);
  check(res.content[1].text.startsWith('// src/'), 'codebase_search: snapshot must start with a // path header');
  check(textOf(res).includes('validateToken'), 'codebase_search: answer should contain validateToken');
  facts.searchItems = res.content.length;
  facts.progressEvents = progressEvents;

  // symbol lookup gives the same shape.
  const sym = await client.callTool({ name: 'codebase_search', arguments: { query: 'symbol = TokenService > issueToken' } });
  check(!sym.isError && sym.content[0].annotations?.priority === 1 && textOf(sym).includes('issueToken(userId: string'), 'symbol lookup: ' + textOf(sym));
  const none = await client.callTool({ name: 'codebase_search', arguments: { query: 'symbol = doesNotExistAnywhere' } });
  check(!none.isError && none.content[0].text.includes('0 results'), 'empty symbol lookup must not be an error: ' + textOf(none));

  // every other tool, with valid arguments.
  const calls = [
    ['find_symbol', { name: 'TokenService' }, 'src/auth/tokenService.ts'],
    ['find_symbol', { name: 'valid', mode: 'prefix' }, 'validateToken'],
    ['find_symbol', { name: 'tknsrv', mode: 'fuzzy' }, 'TokenService'],
    ['find_symbol', { name: 'sign a token for a user', mode: 'semantic' }, 'issueToken'],
    ['list_symbols', { path: 'src/auth/tokenService.ts' }, 'validateToken'],
    ['list_symbols', { path: 'src' }, 'LoginController'],
    ['get_symbol_info', { symbol: 'TokenService > validateToken' }, 'Signature:'],
    ['find_definition', { symbol: 'AuthConfig' }, 'src/config/auth.ts'],
    ['find_definition', { file: 'src/middleware/auth.ts', line: 15, column: 30 }, 'validateToken'],
    ['find_references', { symbol: 'TokenService' }, 'src/middleware/auth.ts'],
    ['find_implementations', { symbol: 'BaseValidator' }, 'TokenService'],
    ['find_importers', { module: 'src/auth/tokenService.ts' }, 'src/controllers/login.ts'],
    ['find_importers', { module: 'node:crypto' }, 'src/auth/crypto.ts'],
    ['search_files', { pattern: 'JWT_SECRET' }, 'src/config/auth.ts:'],
    ['search_files', { pattern: 'valid\\w+Token', regex: true }, 'validateToken'],
    ['find_files', { pattern: '*.ts', path: 'src/auth' }, 'src/auth/crypto.ts'],
  ];
  facts.calls = {};
  for (const [name, args, want] of calls) {
    const r = await client.callTool({ name, arguments: args });
    const t = textOf(r);
    check(!r.isError, `${name} ${JSON.stringify(args)} failed: ${t}`);
    check(t.includes(want), `${name} ${JSON.stringify(args)}: expected ${want} in:\n${t}`);
    facts.calls[name] = (facts.calls[name] ?? 0) + 1;
  }

  // An edit between two calls shows up in the second answer.
  const file = path.join(root, 'src/auth/rotation.ts');
  appendFileSync(file, 'export function rotateSigningKey(days: number): string {\n  return `key-${days}`;\n}\n');
  const edited = await client.callTool({ name: 'find_symbol', arguments: { name: 'rotateSigningKey' } });
  check(!edited.isError && textOf(edited).includes('src/auth/rotation.ts'), 'edit not visible: ' + textOf(edited));
  const edited2 = await client.callTool({ name: 'codebase_search', arguments: { query: 'rotate the signing key' } });
  check(textOf(edited2).includes('rotateSigningKey'), 'edit not visible in codebase_search: ' + textOf(edited2));

  // Bad input: tool errors with clear messages.
  const bad = [
    ['search_files', { pattern: '(unclosed', regex: true }, 'RE2'],
    ['search_files', { pattern: 'x', path: ['../../etc'] }, 'outside'],
    ['list_symbols', { path: '/etc/passwd' }, 'outside'],
    ['codebase_search', { query: '   ' }, 'empty'],
    ['codebase_search', { query: 'x', path: ['../'] }, 'outside'],
    ['find_symbol', { name: 'x', limit: 100000000 }, 'limit'],
    ['find_symbol', { name: 'x', bogus: true }, ''],
    ['get_symbol_info', { symbol: 'TokenService', call_depth: 99 }, 'call_depth'],
    ['find_files', { pattern: '../**/*.ts' }, 'outside'],
    ['find_definition', { file: '../outside.ts', line: 1, column: 1 }, 'outside'],
  ];
  facts.errors = 0;
  for (const [name, args, want] of bad) {
    let r;
    try {
      r = await client.callTool({ name, arguments: args });
    } catch (e) {
      r = { isError: true, content: [{ type: 'text', text: String(e.message) }] };
    }
    check(r.isError === true, `${name} ${JSON.stringify(args)} should be a tool error, got: ${textOf(r)}`);
    check(textOf(r).toLowerCase().includes(want.toLowerCase()), `${name} ${JSON.stringify(args)}: error should mention "${want}": ${textOf(r)}`);
    facts.errors++;
  }
  let unknownRejected = false;
  try {
    const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
    unknownRejected = r.isError === true;
  } catch {
    unknownRejected = true;
  }
  check(unknownRejected, 'unknown tool must be rejected');

  // Arguments nested 1,500 levels deep (past where the SDK decoder would close the session) are refused, and the session goes on.
  let deep = 'x';
  for (let i = 0; i < 1500; i++) deep = [deep];
  let deepMessage = '';
  try {
    const r = await client.callTool({ name: 'search_files', arguments: { pattern: 'x', path: deep } });
    deepMessage = r.isError ? textOf(r) : '';
  } catch (e) {
    deepMessage = String(e.message);
  }
  check(/nested deeper/.test(deepMessage), 'deeply nested arguments must be refused by name, got: ' + deepMessage);
  const after = await client.callTool({ name: 'find_symbol', arguments: { name: 'TokenService' } });
  check(!after.isError && textOf(after).includes('tokenService.ts'), 'session must survive deeply nested arguments: ' + textOf(after));
  facts.deepRefused = true;
}

try {
  if (mode === 'stdio') {
    const { client, close } = await connectStdio();
    await exercise(client);
    await close();
  } else {
    const token = 'e2e-secret-token';
    const { child, url } = await startHTTP(token);
    try {
      const noToken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) });
      check(noToken.status === 401, 'request without token must be refused, got ' + noToken.status);
      const wrong = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
      check(wrong.status === 401, 'wrong token must be refused, got ' + wrong.status);
      const foreign = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
      check(foreign.status === 403, 'foreign origin must be refused, got ' + foreign.status);
      check(!foreign.headers.get('access-control-allow-origin'), 'no CORS header may be sent');
      facts.refused = true;
      const client = new Client({ name: 'scry-e2e-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      await exercise(client);
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  }
} catch (e) {
  failures.push('exception: ' + (e.stack ?? e));
}
facts.failures = failures;
console.log(JSON.stringify(facts));
process.exit(failures.length ? 1 : 0);
