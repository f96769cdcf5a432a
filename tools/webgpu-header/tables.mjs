// Reads bun-webgpu's bundled index.js as text and evaluates only its table statements
// (`var X = defineEnum(...)`, `var X = defineStruct(...)`, plain objects of numbers) in an empty
// vm context with stub definers: nothing of the bundle runs, and bun:ffi is never imported.
import vm from 'node:vm';

function statementEnd(text, start) {
  // The end of the `var ... ;` statement beginning at `start`: the first `;` at nesting depth 0
  // outside strings and comments.
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ';' && depth === 0) return i + 1;
  }
  throw new Error(`tables: unterminated statement at offset ${start}`);
}

// A value standing for anything the table statements reference but the tables do not define
// (validators' helpers, DEFAULT_SUPPORTED_LIMITS...): callable, indexable, never a table.
function stub(name) {
  const f = function () { return stub(`${name}()`); };
  return new Proxy(f, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => 0 : k === '__stub' ? name : stub(`${name}.${String(k)}`)),
  });
}

export function loadTables(source) {
  const statements = [];
  const re = /^var (\w+) = (defineEnum\(|defineStruct\(|\{|")/gm;
  let m;
  while ((m = re.exec(source)) !== null) {
    const end = statementEnd(source, m.index);
    statements.push({ name: m[1], kind: m[2], text: source.slice(m.index, end) });
    re.lastIndex = end;
  }
  const enumDefs = new Map();   // the object defineEnum returned -> its mapping and base type
  const structDefs = new Map(); // the object defineStruct returned -> its fields and options
  const sandbox = {
    defineEnum: (mapping, base = 'u32') => { const d = { __type: 'enum' }; enumDefs.set(d, { mapping, base }); return d; },
    defineStruct: (fields, options) => { const d = { __type: 'struct' }; structDefs.set(d, { fields, options }); return d; },
    objectPtr: () => ({ __type: 'objectPointer' }),
    process: { platform: 'linux', arch: 'x64' },
    Buffer, BigInt, Number, Object, Symbol, Array, TypeError, Error,
  };
  const context = vm.createContext(sandbox);
  for (const s of statements) {
    for (let attempt = 0; ; attempt++) {
      try {
        vm.runInContext(s.text, context);
        break;
      } catch (e) {
        const missing = /^(\w+) is not defined$/.exec(e.message);
        if (!missing || attempt > 50) throw new Error(`tables: cannot evaluate ${s.name}: ${e.message}`);
        context[missing[1]] = stub(missing[1]);
      }
    }
  }
  const enums = {};   // var name -> { values: {key: number}, base }
  const plain = {};   // var name -> { key: number|bigint } (enum or flag tables written as objects)
  const structs = {}; // var name -> { fields: [[name, type, options]], options }
  const nameOf = new Map();
  for (const s of statements) {
    const v = context[s.name];
    if (enumDefs.has(v)) { enums[s.name] = { values: enumDefs.get(v).mapping, base: enumDefs.get(v).base }; nameOf.set(v, s.name); }
    else if (structDefs.has(v)) { structs[s.name] = structDefs.get(v); nameOf.set(v, s.name); }
    else if (s.kind === '{' && v && typeof v === 'object' && Object.keys(v).length > 0 &&
             Object.values(v).every((x) => typeof x === 'number' || typeof x === 'bigint')) {
      plain[s.name] = v;
      nameOf.set(v, s.name);
    }
  }
  return { enums, plain, structs, nameOf };
}

// bun's FFI table: `name: { args: [FFIType.x, ...], returns: FFIType.y }` inside dlopen(...).
export function loadFfi(source) {
  const start = source.indexOf('dlopen(resolvedPath, {');
  if (start < 0) throw new Error('tables: no dlopen(resolvedPath, {...}) FFI table in index.js');
  const open = source.indexOf('{', start);
  let depth = 0, close = open;
  for (; close < source.length; close++) {
    if (source[close] === '{') depth++;
    else if (source[close] === '}' && --depth === 0) break;
  }
  const FFIType = new Proxy({}, { get: (t, k) => String(k) });
  const table = vm.runInNewContext(`(${source.slice(open, close + 1)})`, { FFIType });
  return table;
}
