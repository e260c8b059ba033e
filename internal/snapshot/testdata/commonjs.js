'use strict';

const fs = require('fs');
const path = require('path');
const { promisify } = require('util');
const chalk = require('chalk');

const readFile = promisify(fs.readFile);
const DEFAULT_ENCODING = 'utf8';
const IGNORED = new Set(['node_modules', '.git']);

function isIgnored(name) {
  return IGNORED.has(name);
}

async function readJson(file, encoding = DEFAULT_ENCODING) {
  const text = await readFile(path.resolve(file), encoding);
  try {
    return JSON.parse(text);
  } catch (err) {
    console.error(chalk.red(`invalid JSON in ${file}`));
    throw err;
  }
}

function walk(dir, visit) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (isIgnored(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, visit);
    else visit(full);
  }
}

module.exports = { readJson, walk, isIgnored };
