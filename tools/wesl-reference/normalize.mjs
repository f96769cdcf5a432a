#!/usr/bin/env node
// Compares two linked WGSL texts as the same module, whatever the order of their declarations
// and their layout.
//
//   node tools/wesl-reference/normalize.mjs A.wgsl B.wgsl
//
// Each text is stripped of comments and cut into WGSL tokens, then split into top-level items:
// a directive or a declaration, each with the attributes written before it. The two texts are
// equal when they hold the same items, as a multiset of token sequences: the order of the items
// and the whitespace do not matter, the text of each token does (names, literals as written,
// parentheses, the order of statements and of struct members).
// Two rewrites make printers agree, neither of which changes what the WGSL means:
//   - a trailing comma (one just before ')', ']', '}' or a template's closing '>') is dropped,
//     since the reference linker reprints lists and adds or drops it;
//   - an empty declaration (a lone ';', as after a struct's '}') is dropped.
// '>>' is read as two '>' so that nested templates compare whatever the spacing.
// Exit status: 0 equal; 1 different, and the items only in A and only in B are printed;
// 2 bad usage, an unreadable file or a text that cannot be tokenized.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const punctuation = [
  ">>=", "<<=",
  "->", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
  "++", "--", "<<", "::",
  "@", "(", ")", "[", "]", "{", "}", "<", ">", ",", ".", ";", ":", "=", "+", "-", "*", "/", "%",
  "&", "|", "^", "!", "~", "_",
];

const identRe = /^[\p{XID_Start}_][\p{XID_Continue}]*/u;
const hexRe = /^0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?[fhiu]?/;
const decRe = /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[fhiu]?/;

class TokenizeError extends Error {}

/** The tokens of a WGSL text, comments and whitespace left out. */
export function tokenize(text) {
  const tokens = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      continue;
    }
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    if (text.startsWith("//", i)) {
      while (i < n && text[i] !== "\n" && text[i] !== "\r") i++;
      continue;
    }
    if (text.startsWith("/*", i)) {
      // block comments nest in WGSL
      let depth = 0;
      do {
        if (text.startsWith("/*", i)) {
          depth++;
          i += 2;
        } else if (text.startsWith("*/", i)) {
          depth--;
          i += 2;
        } else {
          if (text[i] === "\n") line++;
          i++;
        }
      } while (depth > 0 && i < n);
      if (depth > 0) throw new TokenizeError(`unterminated block comment (line ${line})`);
      continue;
    }
    const rest = text.slice(i, i + 256);
    let m = hexRe.exec(rest) ?? decRe.exec(rest);
    if (m) {
      tokens.push(m[0]);
      i += m[0].length;
      continue;
    }
    m = identRe.exec(text.slice(i, i + 1024));
    if (m && m[0] !== "_") {
      tokens.push(m[0]);
      i += m[0].length;
      continue;
    }
    if (text.startsWith(">>", i) && !text.startsWith(">>=", i)) {
      tokens.push(">", ">");
      i += 2;
      continue;
    }
    const p = punctuation.find(op => text.startsWith(op, i));
    if (p === undefined) throw new TokenizeError(`unexpected character '${c}' (line ${line})`);
    tokens.push(p);
    i += p.length;
  }
  return tokens;
}

/** Drops trailing commas: a ',' just before ')', ']', '}' or a closing '>'. */
function dropTrailingCommas(tokens) {
  return tokens.filter((t, k) => !(t === "," && [")", "]", "}", ">"].includes(tokens[k + 1])));
}

/** Splits tokens into top-level items: each ends at a ';' or a '}' outside any brackets. */
export function splitItems(tokens) {
  const items = [];
  let current = [];
  let depth = 0;
  for (const t of tokens) {
    current.push(t);
    if (t === "(" || t === "[" || t === "{") depth++;
    else if (t === ")" || t === "]" || t === "}") depth = Math.max(0, depth - 1);
    if (depth === 0 && (t === ";" || t === "}")) {
      if (!(current.length === 1 && t === ";")) items.push(current.join(" "));
      current = [];
    }
  }
  if (current.length) items.push(current.join(" "));
  return items;
}

/** The normalized top-level items of a WGSL text. */
export function normalizedItems(text) {
  return splitItems(dropTrailingCommas(tokenize(text)));
}

function counts(items) {
  const m = new Map();
  for (const it of items) m.set(it, (m.get(it) ?? 0) + 1);
  return m;
}

/** Items of a (with repeats) not matched in b. */
function missingFrom(a, b) {
  const cb = counts(b);
  const out = [];
  for (const it of a) {
    const k = cb.get(it) ?? 0;
    if (k > 0) cb.set(it, k - 1);
    else out.push(it);
  }
  return out;
}

function main() {
  const args = process.argv.slice(2);
  if (args.length !== 2) {
    process.stderr.write("usage: normalize.mjs A.wgsl B.wgsl\n");
    process.exit(2);
  }
  const items = [];
  for (const file of args) {
    try {
      items.push(normalizedItems(fs.readFileSync(file, "utf8")));
    } catch (e) {
      process.stderr.write(`normalize: ${file}: ${e.message}\n`);
      process.exit(2);
    }
  }
  const [a, b] = items;
  const onlyA = missingFrom(a, b);
  const onlyB = missingFrom(b, a);
  if (onlyA.length === 0 && onlyB.length === 0) process.exit(0);
  const out = [];
  out.push(`only in ${args[0]} (${onlyA.length} of ${a.length} items):`);
  for (const it of onlyA) out.push(`  ${it}`);
  out.push(`only in ${args[1]} (${onlyB.length} of ${b.length} items):`);
  for (const it of onlyB) out.push(`  ${it}`);
  process.stdout.write(out.join("\n") + "\n");
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
