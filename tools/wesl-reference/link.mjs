#!/usr/bin/env node
// Links one WESL corpus case with the reference linker (npm wesl, the version pinned in this
// folder's package.json / package-lock.json) and prints the linked WGSL on stdout.
//
//   node tools/wesl-reference/link.mjs CASE_DIR
//
// CASE_DIR holds main.wesl (the root module), the other modules (package::a::b is a/b.wesl, or
// a/b.wgsl) and case.json:
//   {"features": {"NAME": true, ...}, "packages": {"pkg": "packages/pkg"}, "note": "..."}
// Every .wesl/.wgsl file of the case, outside the package folders, goes to the linker by its
// path relative to CASE_DIR; each package goes as a WeslBundle named after its key, with its
// files relative to its folder (its top module is lib.wesl). Names are mangled with
// underscoreMangle; the features are the link's conditions (a name not listed is false).
//
// The wesl package is looked up, first found wins, in: $WESL_REFERENCE_DIR (a folder made by
// scripts/fetch-wesl-reference.sh), this folder, build/wesl-reference of the repository.
// Exit status: 0 linked, 1 the reference refused the case, 2 bad usage or no wesl package.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pinned = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8")).dependencies.wesl;

function fail(status, message) {
  process.stderr.write(`wesl-reference: ${message}\n`);
  process.exit(status);
}

/** The wesl package's entry module (its exports' "import" condition) under one of the candidate folders. */
function findWesl() {
  const candidates = [
    process.env.WESL_REFERENCE_DIR,
    here,
    path.join(here, "..", "..", "build", "wesl-reference"),
  ].filter(Boolean);
  for (const dir of candidates) {
    const pkgDir = path.join(dir, "node_modules", "wesl");
    const manifestPath = path.join(pkgDir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.version !== pinned) {
      fail(2, `${pkgDir} is wesl ${manifest.version}, not the pinned ${pinned} (run scripts/fetch-wesl-reference.sh)`);
    }
    const entry = manifest.exports?.["."]?.import ?? manifest.main;
    return pathToFileURL(path.join(pkgDir, entry)).href;
  }
  fail(2, `no wesl package in ${candidates.join(", ")} (run scripts/fetch-wesl-reference.sh)`);
}

/** Every .wesl/.wgsl file under dir, keyed by its '/'-separated path relative to dir. */
function readModules(dir, skip = new Set()) {
  const modules = {};
  const walk = rel => {
    const entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.has(relPath)) walk(relPath);
      } else if (/\.(wesl|wgsl)$/.test(entry.name)) {
        modules[relPath] = fs.readFileSync(path.join(dir, relPath), "utf8");
      }
    }
  };
  walk("");
  return modules;
}

const args = process.argv.slice(2);
if (args.length !== 1 || args[0].startsWith("-")) fail(2, "usage: link.mjs CASE_DIR");
const caseDir = path.resolve(args[0]);
const caseJsonPath = path.join(caseDir, "case.json");
const caseJson = fs.existsSync(caseJsonPath) ? JSON.parse(fs.readFileSync(caseJsonPath, "utf8")) : {};
const features = caseJson.features ?? {};
const packages = caseJson.packages ?? {};

const packageDirs = new Set(Object.values(packages).map(p => path.posix.normalize(p).replace(/\/$/, "")));
const weslSrc = readModules(caseDir, packageDirs);
if (weslSrc["main.wesl"] === undefined) fail(2, `${caseDir}/main.wesl is missing`);
const libs = Object.entries(packages).map(([name, dir]) => ({
  name,
  edition: "2026_pre",
  modules: readModules(path.join(caseDir, dir)),
}));

const { link, underscoreMangle, withLoggerAsync } = await import(findWesl());
// The linker logs its diagnostics (through its own logger, console.log by default): send them
// to stderr so that stdout carries the linked WGSL alone.
const toStderr = (...items) => console.error(...items);
let linked;
try {
  linked = await withLoggerAsync(toStderr, () => link({
    weslSrc,
    rootModuleName: "main",
    libs,
    conditions: features,
    mangler: underscoreMangle,
  }));
} catch (e) {
  fail(1, `${caseDir}: ${e?.message ?? e}`);
}
process.stdout.write(linked.dest.endsWith("\n") ? linked.dest : linked.dest + "\n");
