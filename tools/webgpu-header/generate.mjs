#!/usr/bin/env node
// Writes webgpu/webgpu.h and webgpu/warden_procs.inc for the pinned Dawn build from bun-webgpu's
// tables (its index.js) and warden's supplement (supplement.mjs). docs/adr/0032 says why and how.
//
//   generate.mjs --tables <bun-webgpu package dir> --exports <file: one wgpu* name a line>
//                --out <dir>        writes <dir>/webgpu/webgpu.h and <dir>/webgpu/warden_procs.inc
//   generate.mjs --from-header <webgpu.h> --out <dir>
//                writes <dir>/webgpu/warden_procs.inc from a user's header's WGPUProc typedefs
//
// Fails (exit 1, naming the problem) if an export has no signature, a signature or field names a
// type the header does not declare, a signature disagrees with the tables' FFI table, or the header
// would declare an entry point the library does not export.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadTables, loadFfi } from './tables.mjs';
import * as supplement from './supplement.mjs';
import { proven } from './proven.mjs';

const GENERATOR = 'tools/webgpu-header/generate.mjs';

class GenerateError extends Error {}
const fail = (message) => { throw new GenerateError(message); };

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    if (!key.startsWith('--')) fail(`unexpected argument '${key}'`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) fail(`${key} needs a value`);
    args[key.slice(2)] = value;
    i++;
  }
  return args;
}

// ---- names --------------------------------------------------------------------------------------
// Words whose casing in webgpu.h is not "first letter up".
const WORDS = {
  gpu: 'GPU', cpu: 'CPU', ccw: 'CCW', cw: 'CW', bc: 'BC', etc2: 'ETC2', astc: 'ASTC', eac: 'EAC', msaa: 'MSAA',
  angle: 'ANGLE', d3d: 'D3D', d3d11: 'D3D11', d3d12: 'D3D12', dxgi: 'DXGI', fd: 'FD', egl: 'EGL', mtl: 'MTL',
  iosurface: 'IOSurface', ycbcr: 'YCbCr', bgra: 'BGRA', rgba: 'RGBA', rgb: 'RGB', rg: 'RG', wgsl: 'WGSL',
  nv12a: 'Nv12a', nv16: 'Nv16', nv24: 'Nv24', f16: 'F16', a: 'A',
};
// Letter runs of texture format names: channels and block-compression families are capitals.
const FORMAT_WORDS = new Set(['r', 'rg', 'rgb', 'rgba', 'bgra', 'bg', 'a', 'b', 'e', 'h', 'x', 'bc', 'etc', 'eac', 'astc']);
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function pascalWord(word, format) {
  if (WORDS[word] !== undefined) return WORDS[word];
  // A word of letters and digits: each run on its own ("depth32float" -> Depth32Float).
  const runs = word.match(/[a-z]+|[0-9]+/g) ?? [word];
  return runs.map((run, i) => {
    if (/^[0-9]/.test(run)) return run;
    if (WORDS[run] !== undefined) return WORDS[run];
    if (run === 'd' && i > 0 && /^[0-9]$/.test(runs[i - 1])) return 'D';  // 2d, 3d, texture2d
    if (run === 'x' && i > 0 && i + 1 < runs.length && (!format || word.startsWith('astc'))) return 'x';  // 4x4, 8x2
    if (format && FORMAT_WORDS.has(run)) return run.toUpperCase();
    return cap(run);
  }).join('');
}

function valueName(enumName, key) {
  if (/^force[-_]?32$/i.test(key)) return 'Force32';
  if (/^[A-Z]/.test(key) && !/[-_]/.test(key)) return key;  // already PascalCase in the tables
  const format = enumName === 'WGPUTextureFormat';
  if (enumName === 'WGPUVertexFormat' && /^[a-z]+[0-9]+(-[0-9]+)+$/.test(key)) {
    const [head, ...rest] = key.split('-');
    return `${pascalWord(head, false)}_${rest.join('_')}`;  // unorm10-10-10-2 -> Unorm10_10_10_2
  }
  let words = key.split(/[-_]/);
  if (format && words[0] === 'astc') words = [words.slice(0, 2).join('')].concat(words.slice(2));
  return words.map((w) => pascalWord(w, format)).join('');
}

// ---- model --------------------------------------------------------------------------------------
const SCALARS = new Set(['void', 'char', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'int32_t', 'size_t', 'float', 'double', 'WGPUBool', 'WGPUFlags']);
const PRIMITIVE_TYPES = { u8: 'uint8_t', u16: 'uint16_t', u32: 'uint32_t', i32: 'int32_t', u64: 'uint64_t', f32: 'float', f64: 'double', bool_u32: 'WGPUBool', 'char*': 'char const *' };

function buildModel(tables) {
  const model = { enums: new Map(), flags: new Map(), structs: new Map(), callbacks: new Map(), objects: supplement.objects.slice(), functions: new Map() };

  // Enums: the tables' defineEnum()s and plain value tables, under their header names.
  const enumHeaderName = (v) => supplement.enumTableNames[v] ?? `WGPU${v.replace(/^WGPU/, '').replace(/Def$/, '')}`;
  const tableEnums = [
    ...Object.entries(tables.enums).map(([v, e]) => [v, e.values]),
    ...Object.entries(tables.plain).filter(([v]) => supplement.flagTableNames[v] === undefined).map(([v, e]) => [v, e]),
  ];
  for (const [v, values] of tableEnums) {
    const name = enumHeaderName(v);
    const entry = model.enums.get(name) ?? { values: new Map(), source: `tables:${v}` };
    for (const [key, value] of Object.entries(values)) {
      const vn = valueName(name, key);
      if (vn === 'Force32') continue;
      const prior = entry.values.get(vn);
      if (prior !== undefined && prior.value !== Number(value)) fail(`the tables give ${name}_${vn} two values: ${prior.value} and ${value}`);
      // The spec's string where the tables have it ("rgba8unorm"); PascalCase keys in lower case
      // ("OpenGLES" -> "opengles").
      entry.values.set(vn, { value: Number(value), source: 'tables', spelling: /^[A-Z]/.test(key) ? key.toLowerCase() : key });
    }
    model.enums.set(name, entry);
  }
  for (const [name, corrections] of Object.entries(supplement.enumValueCorrections)) {
    const entry = model.enums.get(name) ?? fail(`a correction names enum ${name}, which the tables lack`);
    for (const [vn, value] of Object.entries(corrections)) entry.values.set(vn, { value, source: 'correction' });
  }
  for (const [name, values] of Object.entries(supplement.enums)) {
    if (model.enums.has(name)) fail(`supplement enum ${name} is also in the tables: correct it with enumValueCorrections`);
    model.enums.set(name, { values: new Map(Object.entries(values).map(([vn, value]) => [vn, { value, source: 'supplement' }])), source: 'supplement' });
  }
  for (const entry of model.enums.values()) {
    // In value order, as the standard header writes them; names break ties (0x0 aliases).
    entry.values = new Map([...entry.values].sort((a, b) => a[1].value - b[1].value || a[0].localeCompare(b[0])));
    const seen = new Map();
    for (const [vn, { value }] of entry.values) {
      if (seen.has(value)) fail(`enum value ${value} has two names: ${seen.get(value)} and ${vn}`);
      seen.set(value, vn);
    }
  }

  // Flags: SCREAMING_CASE or PascalCase keys, 64-bit values.
  for (const [v, name] of Object.entries(supplement.flagTableNames)) {
    const table = tables.plain[v] ?? fail(`the tables have no flag table ${v}`);
    const values = new Map([['None', { value: 0n, source: 'tables' }]]);
    for (const [key, value] of Object.entries(table)) {
      const vn = /^[A-Z0-9_]+$/.test(key) ? key.toLowerCase().split('_').map(cap).join('') : key;
      values.set(vn, { value: BigInt(value), source: 'tables' });
    }
    model.flags.set(name, { values, source: `tables:${v}` });
  }
  for (const [name, values] of Object.entries(supplement.flags)) {
    model.flags.set(name, { values: new Map(Object.entries(values).map(([vn, value]) => [vn, { value: BigInt(value), source: 'supplement' }])), source: 'supplement' });
  }

  // Callbacks and their infos.
  for (const [name, [ret, params]] of Object.entries(supplement.callbacks)) model.callbacks.set(name, { ret, params });
  const builtins = [
    ['WGPUChainedStruct', [['struct WGPUChainedStruct *', 'next'], ['WGPUSType', 'sType']]],
  ];
  const order = [];
  const addStruct = (name, fields, source) => {
    if (model.structs.has(name)) fail(`struct ${name} is declared twice (${source} and ${model.structs.get(name).source})`);
    model.structs.set(name, { fields, source });
    order.push(name);
  };
  for (const [name, fields] of builtins) addStruct(name, fields, 'builtin');
  for (const cb of supplement.callbackInfos) {
    addStruct(`WGPU${cb}CallbackInfo`, [['WGPUChainedStruct *', 'nextInChain'], ['WGPUCallbackMode', 'mode'],
      [`WGPU${cb}Callback`, 'callback'], ['void *', 'userdata1'], ['void *', 'userdata2']], 'supplement');
  }

  // The tables' structs, their field types resolved to the header's.
  const enumOfTable = new Map(Object.keys(tables.enums).map((v) => [v, enumHeaderName(v)]));
  for (const [v, def] of Object.entries(tables.structs)) {
    if (supplement.skippedStructTables.includes(v)) continue;
    const name = v.replace(/Struct$/, '');
    const correction = supplement.structCorrections[name] ?? {};
    let fields = [];
    for (const [fieldName, type, options = {}] of def.fields) {
      const fname = correction.rename?.[fieldName] ?? fieldName;
      const key = `${name}.${fname}`;
      // `*.field` names what an untyped pointer field is; `Struct.field` overrides any type.
      const untyped = type === 'pointer' || (type !== null && typeof type === 'object' && type.__type === 'objectPointer');
      const override = supplement.fieldTypes[key] ?? (untyped ? supplement.fieldTypes[`*.${fname}`] : undefined);
      let ctype;
      const tableName = typeof type === 'object' && type !== null ? tables.nameOf.get(Array.isArray(type) ? type[0] : type) : undefined;
      if (override !== undefined) ctype = override;
      else if (options.lengthOf !== undefined) ctype = 'size_t';
      else if (Array.isArray(type)) {
        const element = tables.nameOf.get(type[0]);
        if (element === undefined) fail(`${key}: an array of an unnamed type; name it in supplement fieldTypes`);
        ctype = `${enumOfTable.get(element) ?? element.replace(/Struct$/, '')} const *`;
      } else if (typeof type === 'string') {
        ctype = PRIMITIVE_TYPES[type] ?? fail(`${key}: the tables' type '${type}' has no C type; name it in supplement fieldTypes`);
      } else if (tableName !== undefined && enumOfTable.has(tableName)) ctype = enumOfTable.get(tableName);
      else if (tableName !== undefined && tables.structs[tableName]) {
        const s = tableName === 'WGPUChainedStructStruct' ? 'WGPUChainedStruct' : tableName.replace(/Struct$/, '');
        ctype = options.asPointer ? `${s} const *` : s;
      } else fail(`${key}: the tables' type cannot be named; name it in supplement fieldTypes`);
      fields.push([ctype, fname]);
    }
    if (correction.dropFieldsAfter !== undefined) {
      const at = fields.findIndex(([, f]) => f === correction.dropFieldsAfter);
      if (at < 0) fail(`${name} has no field ${correction.dropFieldsAfter} to cut after`);
      fields = fields.slice(0, at + 1);
    }
    addStruct(name, fields, `tables:${v}`);
  }
  for (const [name, fields] of Object.entries(supplement.structs)) {
    addStruct(name, fields.map((f) => {
      const m = /^(.*\S)\s+(\w+)$/.exec(f) ?? fail(`supplement ${name}: cannot read field '${f}'`);
      return [m[1], m[2]];
    }), 'supplement');
  }
  model.structOrder = order;

  // Entry points: the supplement's, and AddRef/Release/SetLabel of every object type.
  const parseParams = (text, where) => text.trim() === '' ? [] : text.split(',').map((p) => {
    const m = /^(.*\S)\s+(\w+)$/.exec(p.trim()) ?? fail(`${where}: cannot read parameter '${p.trim()}'`);
    return { type: m[1], name: m[2] };
  });
  const addFunction = (name, ret, params, source) => {
    if (model.functions.has(name)) fail(`entry point wgpu${name} is declared twice`);
    model.functions.set(name, { ret, params, source });
  };
  for (const line of supplement.functions.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const m = /^(.*\S)\s+(\w+)\((.*)\)$/.exec(line) ?? fail(`supplement: cannot read signature '${line}'`);
    addFunction(m[2], m[1], parseParams(m[3], m[2]), 'supplement');
  }
  for (const o of model.objects) {
    const self = { type: `WGPU${o}`, name: o.charAt(0).toLowerCase() + o.slice(1) };
    addFunction(`${o}AddRef`, 'void', [self], 'supplement');
    addFunction(`${o}Release`, 'void', [self], 'supplement');
    if (!supplement.objectsWithoutSetLabel.includes(o)) addFunction(`${o}SetLabel`, 'void', [self, { type: 'WGPUStringView', name: 'label' }], 'supplement');
  }
  return model;
}

// ---- checks -------------------------------------------------------------------------------------
function baseType(ctype) {
  return ctype.replace(/^struct\s+/, '').replace(/\bconst\b/g, '').replace(/\*/g, '').trim();
}
function isPointer(ctype) { return ctype.includes('*'); }

function knownTypes(model) {
  const known = new Set([...SCALARS, 'WGPUProc']);
  for (const o of model.objects) known.add(`WGPU${o}`);
  for (const n of [...model.enums.keys(), ...model.flags.keys(), ...model.structs.keys(), ...model.callbacks.keys()]) known.add(n);
  return known;
}

function checkTypes(model) {
  const known = knownTypes(model);
  const declared = new Set(['WGPUChainedStruct']);
  const check = (ctype, where) => { if (!known.has(baseType(ctype))) fail(`${where} names the unknown type '${baseType(ctype)}'`); };
  for (const name of model.structOrder) {
    for (const [ctype, field] of model.structs.get(name).fields) {
      check(ctype, `struct ${name} field ${field}`);
      if (!isPointer(ctype) && model.structs.has(baseType(ctype)) && !declared.has(baseType(ctype))) {
        fail(`struct ${name} holds ${baseType(ctype)} by value before it is declared: reorder the supplement`);
      }
    }
    declared.add(name);
  }
  for (const [name, cb] of model.callbacks) {
    check(cb.ret, `callback ${name}`);
    for (const p of cb.params.split(',')) check(p.trim().replace(/\s+\w+$/, ''), `callback ${name}`);
  }
  for (const [name, f] of model.functions) {
    check(f.ret, `wgpu${name}'s return type`);
    for (const p of f.params) check(p.type, `wgpu${name}'s parameter ${p.name}`);
  }
}

// What the FFI table's scalar kinds say each parameter is: bun passes structs (callback infos,
// string views, FreeMembers' values) to its own z-wrappers by pointer.
function ffiKind(model, ctype) {
  if (isPointer(ctype) || ctype.startsWith('WGPU') && model.objects.includes(ctype.slice(4)) || ctype === 'WGPUProc') return 'ptr';
  if (model.structs.has(ctype)) return 'struct';
  if (model.callbacks.has(ctype)) return 'ptr';
  if (model.enums.has(ctype) || ['uint32_t', 'WGPUBool'].includes(ctype)) return 'u32';
  if (model.flags.has(ctype) || ['uint64_t', 'size_t', 'WGPUFlags'].includes(ctype)) return 'u64';
  return { int32_t: 'i32', float: 'f32', double: 'f64', void: 'void' }[ctype] ?? ctype;
}
const FFI_KINDS = { ptr: 'ptr', pointer: 'ptr', u32: 'u32', uint32_t: 'u32', u64: 'u64', uint64_t: 'u64', i32: 'i32', int32_t: 'i32', f32: 'f32', float: 'f32', f64: 'f64', double: 'f64', void: 'void', bool: 'u32' };

function checkFfi(model, ffi) {
  const problems = [];
  for (const [ffiName, { args = [], returns = 'void' }] of Object.entries(ffi)) {
    const name = ffiName.replace(/^z?wgpu/, '');
    const f = model.functions.get(name);
    if (f === undefined) { problems.push(`the FFI table's ${ffiName} has no signature wgpu${name}`); continue; }
    const wrapped = ffiName.startsWith('z');
    if (args.length !== f.params.length) { problems.push(`wgpu${name}: ${f.params.length} parameters, the FFI table's ${ffiName} has ${args.length}`); continue; }
    f.params.forEach((p, i) => {
      const mine = ffiKind(model, p.type), theirs = FFI_KINDS[args[i]] ?? args[i];
      const ok = mine === theirs || (mine === 'struct' && (wrapped || theirs === 'ptr'));
      if (!ok) problems.push(`wgpu${name} parameter ${p.name} (${p.type}): the FFI table's ${ffiName} passes ${args[i]}`);
    });
    const mine = ffiKind(model, f.ret), theirs = FFI_KINDS[returns] ?? returns;
    // WGPUFuture is a struct of one uint64_t, returned in a register like one.
    const ok = mine === theirs || (f.ret === 'WGPUFuture' && theirs === 'u64');
    if (!ok) problems.push(`wgpu${name} returns ${f.ret}: the FFI table's ${ffiName} returns ${returns}`);
  }
  if (problems.length) fail(`signatures disagree with the tables' FFI table:\n  ${problems.join('\n  ')}`);
}

function checkExports(model, exportsText) {
  const exported = new Set(exportsText.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('wgpu')).map((l) => l.slice(4)));
  if (exported.size === 0) fail('the export list names no wgpu* function');
  const missing = [...exported].filter((n) => !model.functions.has(n)).sort();
  const extra = [...model.functions.keys()].filter((n) => !exported.has(n)).sort();
  if (missing.length) fail(`${missing.length} exports of the library have no signature: ${missing.map((n) => `wgpu${n}`).join(', ')}`);
  if (extra.length) fail(`${extra.length} signatures name no export of the library: ${extra.map((n) => `wgpu${n}`).join(', ')}`);
  return exported.size;
}

// ---- proof marks --------------------------------------------------------------------------------
function provenSets(model) {
  const values = new Set(), structs = new Set(proven.structs), fns = new Set(proven.functions);
  for (const [e, names] of Object.entries(proven.enums)) for (const n of names) values.add(`${e}_${n}`);
  for (const [e, except] of Object.entries(proven.everyValueOf)) {
    if (!model.enums.has(e)) fail(`proven.everyValueOf names ${e}, which is not an enum of the header`);
    const enumValues = model.enums.get(e).values;
    for (const vn of except) if (!enumValues.has(vn)) fail(`proven.everyValueOf.${e} excepts ${vn}, which ${e} does not have`);
    for (const [vn] of enumValues) if (!except.includes(vn)) values.add(`${e}_${vn}`);
  }
  return { values, structs, fns };
}

// ---- writing ------------------------------------------------------------------------------------
const hex32 = (n) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;
const hex64 = (n) => `0x${n.toString(16).toUpperCase().padStart(16, '0')}`;
const UNPROVEN = ' /* unproven */';

function writeHeader(model, meta) {
  const p = provenSets(model);
  const count = { enums: model.enums.size, values: 0, provenValues: 0, flags: model.flags.size, flagValues: 0, provenFlagValues: 0,
    structs: model.structs.size, provenStructs: 0, functions: model.functions.size, provenFunctions: 0 };
  const L = [];
  const body = [];
  const B = (s = '') => body.push(s);

  B('#include <math.h>  /* NAN: WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT */');
  B('#include <stddef.h>');
  B('#include <stdint.h>');
  B('');
  B('#if defined(__cplusplus)');
  B('extern "C" {');
  B('#endif');
  B('');
  B('typedef uint32_t WGPUBool;');
  B('typedef uint64_t WGPUFlags;');
  B('');
  for (const [name, value] of [['WGPU_ARRAY_LAYER_COUNT_UNDEFINED', 'UINT32_MAX'], ['WGPU_COPY_STRIDE_UNDEFINED', 'UINT32_MAX'],
    ['WGPU_DEPTH_SLICE_UNDEFINED', 'UINT32_MAX'], ['WGPU_LIMIT_U32_UNDEFINED', 'UINT32_MAX'], ['WGPU_LIMIT_U64_UNDEFINED', 'UINT64_MAX'],
    ['WGPU_MIP_LEVEL_COUNT_UNDEFINED', 'UINT32_MAX'], ['WGPU_QUERY_SET_INDEX_UNDEFINED', 'UINT32_MAX'], ['WGPU_STRLEN', 'SIZE_MAX'],
    ['WGPU_WHOLE_MAP_SIZE', 'SIZE_MAX'], ['WGPU_WHOLE_SIZE', 'UINT64_MAX']]) {
    B(`#define ${name} (${value})`);
  }
  B('');
  B('/* Objects */');
  for (const o of model.objects) B(`typedef struct WGPU${o}Impl* WGPU${o};`);
  B('');
  B('/* Structs, declared ahead of the callbacks that take them */');
  for (const name of model.structOrder) B(`struct ${name};`);
  B('');
  B('/* Enums */');
  for (const [name, e] of model.enums) {
    B(`typedef enum ${name} {`);
    for (const [vn, { value }] of e.values) {
      const ok = p.values.has(`${name}_${vn}`);
      count.values++;
      if (ok) count.provenValues++;
      B(`    ${name}_${vn} = ${hex32(value)},${ok ? '' : UNPROVEN}`);
    }
    B(`    ${name}_Force32 = 0x7FFFFFFF`);
    B(`} ${name};`);
    B('');
  }
  B('/* Bit flags (64-bit in this ABI) */');
  for (const [name, f] of model.flags) {
    B(`typedef WGPUFlags ${name};`);
    for (const [vn, { value }] of f.values) {
      const ok = p.values.has(`${name}_${vn}`);
      count.flagValues++;
      if (ok) count.provenFlagValues++;
      B(`static const ${name} ${name}_${vn} = ${hex64(value)};${ok ? '' : UNPROVEN}`);
    }
    B('');
  }
  // The two structs the callbacks take by value come before them; the rest after.
  const early = ['WGPUChainedStruct', 'WGPUStringView'];
  const writeStruct = (name) => {
    const ok = p.structs.has(name);
    if (ok) count.provenStructs++;
    B(`typedef struct ${name} {${ok ? '' : UNPROVEN}`);
    for (const [ctype, field] of model.structs.get(name).fields) B(`    ${ctype} ${field};`);
    B(`} ${name};`);
    B('');
  };
  B('/* Structs the callbacks take by value */');
  early.forEach(writeStruct);
  B('/* Callbacks */');
  B('typedef void (*WGPUProc)(void);');
  for (const [name, cb] of model.callbacks) B(`typedef ${cb.ret} (*${name})(${cb.params});${p.structs.has(name) ? '' : UNPROVEN}`);
  B('');
  B('/* Structs */');
  for (const name of model.structOrder) if (!early.includes(name)) writeStruct(name);
  body.push(...initializers(model));
  const sorted = [...model.functions.keys()].sort();
  const params = (f) => (f.params.length ? f.params.map((x) => `${x.type} ${x.name}`).join(', ') : 'void');
  B('/* Entry points: every wgpu* function the library exports */');
  for (const name of sorted) {
    const f = model.functions.get(name);
    const ok = p.fns.has(name);
    if (ok) count.provenFunctions++;
    B(`typedef ${f.ret} (*WGPUProc${name})(${params(f)});${ok ? '' : UNPROVEN}`);
  }
  B('');
  B('#if !defined(WGPU_SKIP_DECLARATIONS)');
  for (const name of sorted) {
    const f = model.functions.get(name);
    B(`${f.ret} wgpu${name}(${params(f)});`);
  }
  B('#endif  /* !defined(WGPU_SKIP_DECLARATIONS) */');
  B('');
  B('#if defined(__cplusplus)');
  B('}  /* extern "C" */');
  B('#endif');
  B('');
  B('#endif  /* WARDEN_GENERATED_WEBGPU_H_ */');

  L.push('/* webgpu.h for the Dawn build warden loads (bun-webgpu-linux-x64@0.1.7\'s libwebgpu_wrapper.so).');
  L.push(' *');
  L.push(` * GENERATED by warden's ${GENERATOR}: do not edit.`);
  L.push(` * From the tables of npm ${meta.package} (integrity ${meta.integrity}),`);
  L.push(' * with warden\'s supplement (tools/webgpu-header/supplement.mjs) for what the tables lack or get wrong.');
  L.push(' *');
  L.push(` * ${count.enums} enums with ${count.values} values (${count.provenValues} proven), ${count.flags} flag types with ${count.flagValues} values`);
  L.push(` * (${count.provenFlagValues} proven), ${count.structs} structs (${count.provenStructs} proven), ${count.functions} entry points (${count.provenFunctions} proven).`);
  L.push(' * "Proven": warden\'s tests against the library show the value, layout or signature (tests/gpu/abi_*,');
  L.push(' * tests/gpu/header_*). Everything marked unproven comes from the tables or the supplement alone.');
  L.push(' */');
  L.push('#ifndef WARDEN_GENERATED_WEBGPU_H_');
  L.push('#define WARDEN_GENERATED_WEBGPU_H_');
  L.push('');
  return { text: `${L.join('\n')}\n${body.join('\n')}\n`, count };
}

// The structs that name an object or a callback, in a field or in a struct or array they hold
// (not through nextInChain): a call that takes one cannot be forwarded to the library as it is,
// because warden's webgpu.h library hands out objects of its own (src/webgpu/).
// `structs`: name -> [[ctype, field]]; `callbacks`: the callback type names.
function structsNamingObjects(structs, objects, callbacks) {
  const objectTypes = new Set(objects.map((o) => `WGPU${o}`));
  const base = (ctype) => ctype.replace(/\bconst\b|\bstruct\b|\*|WGPU_NULLABLE/g, ' ').trim();
  const naming = new Set();
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, fields] of structs) {
      if (naming.has(name)) continue;
      const names = fields.some(([ctype, field]) => field !== 'nextInChain' && field !== 'next' &&
        (objectTypes.has(base(ctype)) || callbacks.has(base(ctype)) || naming.has(base(ctype))));
      if (names) { naming.add(name); changed = true; }
    }
  }
  return [...naming].sort();
}

// WGPU_<STRUCT>_INIT for every struct: what webgpu.h's initializer macros give (C: a compound
// literal; C++: a braced temporary), each field the zero of its type unless the standard says
// otherwise (supplement.initDefaults), nested structs by their own INIT, an extension struct's
// chain with its own sType.
function initName(struct) {
  const words = struct.slice(4).replace(/([a-z])([A-Z0-9])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2');
  return `WGPU_${words.toUpperCase()}_INIT`;
}

function initializers(model) {
  const L = [];
  L.push('/* Initializers: WGPU_<STRUCT>_INIT, with webgpu.h\'s defaults */');
  L.push('#if defined(__cplusplus)');
  L.push('#define _wgpu_MAKE_INIT_STRUCT(type, value) (type value)');
  L.push('#else');
  L.push('#define _wgpu_MAKE_INIT_STRUCT(type, value) ((type) value)');
  L.push('#endif');
  L.push('#define _wgpu_COMMA ,');
  L.push('#define _wgpu_ENUM_ZERO_INIT(type) (type)(0)');
  L.push('');
  const sTypes = model.enums.get('WGPUSType')?.values ?? new Map();
  const fieldDefault = (struct, ctype, field) => {
    const special = supplement.initDefaults[struct];
    if (typeof special === 'object' && special[field] !== undefined) return special[field];
    const base = baseType(ctype);
    if (typeof special === 'string' && !isPointer(ctype) && (base === 'uint32_t' || base === 'uint64_t')) {
      return base === 'uint64_t' ? 'WGPU_LIMIT_U64_UNDEFINED' : 'WGPU_LIMIT_U32_UNDEFINED';
    }
    if (isPointer(ctype) || ctype.startsWith('WGPU') && model.objects.includes(ctype.slice(4)) || model.callbacks.has(base) ||
        base === 'WGPUProc') return 'NULL';
    if (field === 'chain' && base === 'WGPUChainedStruct') {
      const sType = sTypes.has(struct.slice(4)) ? `WGPUSType_${struct.slice(4)}` : '_wgpu_ENUM_ZERO_INIT(WGPUSType)';
      return `_wgpu_MAKE_INIT_STRUCT(WGPUChainedStruct, { NULL _wgpu_COMMA ${sType} _wgpu_COMMA })`;
    }
    if (model.structs.has(base)) return initName(base);
    if (model.enums.has(base)) return `_wgpu_ENUM_ZERO_INIT(${base})`;
    if (model.flags.has(base)) return model.flags.get(base).values.has('None') ? `${base}_None` : `(${base})0`;
    if (base === 'float') return '0.f';
    if (base === 'double') return '0.';
    return '0';
  };
  for (const name of model.structOrder) {
    const fields = model.structs.get(name).fields;
    L.push(`#define ${initName(name)} _wgpu_MAKE_INIT_STRUCT(${name}, { \\`);
    for (const [ctype, field] of fields) L.push(`    /*.${field}=*/${fieldDefault(name, ctype, field)} _wgpu_COMMA \\`);
    L.push('})');
  }
  L.push('');
  return L;
}

function writeProcs(entries, objects, source, naming) {
  const L = [];
  L.push(`/* GENERATED by warden's ${GENERATOR} from ${source}: do not edit.`);
  L.push(' * WARDEN_WEBGPU_PROCS(X): X(ReturnType, NameWithoutWgpuPrefix, (ParamTypes...)) for every entry point.');
  L.push(' * WARDEN_WEBGPU_PROCS_NAMED(X): X(ReturnType, NameWithoutWgpuPrefix, (ParamType a0, ...), (a0, ...)),');
  L.push(' *   the same entry points with their parameters named, for definitions (src/webgpu/exports.cpp).');
  L.push(' * WARDEN_WEBGPU_OBJECT_TYPES(X): X(Name) for every object type (WGPU<Name>).');
  L.push(' * WARDEN_WEBGPU_STRUCTS_NAMING_OBJECTS(X): X(StructType) for every struct that names an object or');
  L.push(' *   a callback (in a field, or a struct or array it holds; not through nextInChain). */');
  L.push('#pragma once');
  L.push('');
  L.push('#define WARDEN_WEBGPU_PROCS(X) \\');
  entries.forEach(([ret, name, types], i) => {
    L.push(`  X(${ret}, ${name}, (${types.join(', ')}))${i + 1 < entries.length ? ' \\' : ''}`);
  });
  L.push('');
  L.push('#define WARDEN_WEBGPU_PROCS_NAMED(X) \\');
  entries.forEach(([ret, name, types], i) => {
    const params = types.map((t, k) => `${t} a${k}`).join(', ');
    const args = types.map((t, k) => `a${k}`).join(', ');
    L.push(`  X(${ret}, ${name}, (${params}), (${args}))${i + 1 < entries.length ? ' \\' : ''}`);
  });
  L.push('');
  L.push('#define WARDEN_WEBGPU_OBJECT_TYPES(X) \\');
  objects.forEach((o, i) => L.push(`  X(${o})${i + 1 < objects.length ? ' \\' : ''}`));
  L.push('');
  L.push('#define WARDEN_WEBGPU_STRUCTS_NAMING_OBJECTS(X) \\');
  naming.forEach((o, i) => L.push(`  X(${o})${i + 1 < naming.length ? ' \\' : ''}`));
  L.push('');
  return `${L.join('\n')}`;
}

// The spelling warden prints for a value: the tables' key (the WebGPU spec's string, "rgba8unorm"),
// else the value's name in lower case with hyphens between words ("DiscreteGPU" -> "discrete-gpu").
function spellingOf(valueName) {
  return valueName.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2').toLowerCase();
}

// WARDEN_WEBGPU_NAMES_<Enum>(X): X(EnumeratorName, "spelling") for every value of every enum, so
// that warden names every value of the header it was built with (gpu/names.cpp).
function writeEnumNames(enums, source) {
  const L = [];
  L.push(`/* GENERATED by warden's ${GENERATOR} from ${source}: do not edit.`);
  L.push(' * WARDEN_WEBGPU_NAMES_<Enum>(X): X(Enumerator, "spelling") for every value of each enum. */');
  L.push('#pragma once');
  for (const [name, values] of enums) {
    L.push('');
    L.push(`#define WARDEN_WEBGPU_NAMES_${name}(X) \\`);
    values.forEach(([vn, spelling], i) => L.push(`  X(${name}_${vn}, "${spelling}")${i + 1 < values.length ? ' \\' : ''}`));
  }
  L.push('');
  return L.join('\n');
}

function enumsFromHeader(flat) {
  return [...flat.matchAll(/typedef enum (WGPU\w+) ?\{([^}]*)\} ?\1 ?;/g)].map((m) => [m[1],
    m[2].split(',').map((v) => v.trim().split('=')[0].trim()).filter((v) => v.startsWith(`${m[1]}_`))
      .map((v) => v.slice(m[1].length + 1)).filter((vn) => vn !== 'Force32').map((vn) => [vn, spellingOf(vn)])]);
}

function writeFile(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Unchanged output keeps its timestamp, so nothing that includes it rebuilds.
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
  fs.writeFileSync(file, text);
}

// A user's header: the procs are its WGPUProc typedefs, the objects its `WGPU<Name>Impl*` typedefs.
function procsFromHeader(text) {
  const flat = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ');
  const entries = [];
  const re = /typedef ([^;()]+?) ?\( ?\* ?WGPUProc(\w+) ?\) ?\(([^)]*)\)[^;]*;/g;
  let m;
  while ((m = re.exec(flat)) !== null) {
    const types = m[3].trim() === 'void' || m[3].trim() === '' ? [] : m[3].split(',').map((p) => p.trim()
      .replace(/\s*WGPU_NULLABLE\s*/g, ' ').replace(/\s+\w+$/, '').replace(/\s+/g, ' ').trim());
    entries.push([m[1].replace(/WGPU_NULLABLE/g, '').trim(), m[2], types]);
  }
  const objects = [...flat.matchAll(/typedef struct WGPU(\w+)Impl ?\* ?WGPU\1 ?;/g)].map((x) => x[1]);
  if (entries.length === 0) fail('the header has no WGPUProc typedefs: warden needs one per entry point it calls');
  const structs = new Map([...flat.matchAll(/typedef struct (WGPU\w+) ?\{([^}]*)\} ?\1 ?;/g)].map((x) => [x[1],
    x[2].split(';').map((f) => f.trim()).filter((f) => f !== '').map((f) => {
      const m2 = /^(.*?)\s*(\w+)$/.exec(f.replace(/WGPU_NULLABLE/g, ' ').replace(/\s+/g, ' ').trim());
      return m2 ? [m2[1], m2[2]] : [f, ''];
    })]));
  // Every function-pointer type but the entry points' own (WGPUProc*): callbacks and Dawn's cache functions.
  const callbacks = new Set([...flat.matchAll(/typedef [^;()]+\( ?\* ?(WGPU\w+) ?\)/g)].map((x) => x[1])
    .filter((name) => !name.startsWith('WGPUProc')));
  return { entries: entries.sort((a, b) => (a[1] < b[1] ? -1 : 1)), objects,
    naming: structsNamingObjects(structs, objects, callbacks) };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.out) fail('--out <dir> is required');
  if (args['from-header']) {
    const { entries, objects, naming } = procsFromHeader(fs.readFileSync(args['from-header'], 'utf8'));
    writeFile(path.join(args.out, 'webgpu', 'warden_procs.inc'), writeProcs(entries, objects, 'the WGPUProc typedefs of a user\'s webgpu.h', naming));
    const flat = fs.readFileSync(args['from-header'], 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/\s+/g, ' ');
    writeFile(path.join(args.out, 'webgpu', 'warden_enum_names.inc'), writeEnumNames(enumsFromHeader(flat), 'the enums of a user\'s webgpu.h'));
    return;
  }
  if (!args.tables || !args.exports) fail('--tables <bun-webgpu package dir> and --exports <file> are required');
  const indexJs = path.join(args.tables, 'index.js');
  const pkg = JSON.parse(fs.readFileSync(path.join(args.tables, 'package.json'), 'utf8'));
  const stamp = path.join(args.tables, '.integrity');
  const integrity = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : 'not recorded';
  const source = fs.readFileSync(indexJs, 'utf8');
  const tables = loadTables(source);
  const model = buildModel(tables);
  checkTypes(model);
  checkFfi(model, loadFfi(source));
  checkExports(model, fs.readFileSync(args.exports, 'utf8'));
  const { text, count } = writeHeader(model, { package: `${pkg.name}@${pkg.version}`, integrity });
  writeFile(path.join(args.out, 'webgpu', 'webgpu.h'), text);
  const entries = [...model.functions.keys()].sort().map((name) => {
    const f = model.functions.get(name);
    return [f.ret, name, f.params.map((x) => x.type)];
  });
  const naming = structsNamingObjects(new Map([...model.structs].map(([name, st]) => [name, st.fields])), model.objects,
    new Set(model.callbacks.keys()));
  writeFile(path.join(args.out, 'webgpu', 'warden_procs.inc'), writeProcs(entries, model.objects, `npm ${pkg.name}@${pkg.version}`, naming));
  const enumNames = [...model.enums].map(([name, entry]) => [name,
    [...entry.values].map(([vn, v]) => [vn, v.spelling ?? spellingOf(vn)])]);
  writeFile(path.join(args.out, 'webgpu', 'warden_enum_names.inc'), writeEnumNames(enumNames, `npm ${pkg.name}@${pkg.version}`));
  if (args.summary) {
    writeFile(args.summary, `${JSON.stringify({ ...count, sha256: crypto.createHash('sha256').update(text).digest('hex') }, null, 2)}\n`);
  }
}

try {
  main();
} catch (e) {
  if (!(e instanceof GenerateError)) throw e;
  process.stderr.write(`webgpu-header: ${e.message}\n`);
  process.exit(1);
}
