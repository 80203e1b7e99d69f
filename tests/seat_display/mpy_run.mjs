// Run a script under MicroPython itself (its WebAssembly port, from npm), not CPython.
// usage: node mpy_run.mjs FOLDER SCRIPT.py — FOLDER's files (with subfolders) are copied to
// the interpreter's "/" first; what the script prints comes out on stdout; an exception fails.
// The package is installed by scripts/setup.sh test into .venv/mpy-wasm (NODE_PATH points there).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), "x.js"));
const { loadMicroPython } = await import(require.resolve("@micropython/micropython-webassembly-pyscript/micropython.mjs"));
const [dir, script] = process.argv.slice(2);
let failed = false;
const mp = await loadMicroPython({ stdout: (l) => console.log(l), stderr: (l) => { failed = true; console.error(l); } });
function copy(from, to) {
  for (const name of fs.readdirSync(from)) {
    const src = path.join(from, name);
    if (fs.statSync(src).isDirectory()) { mp.FS.mkdir(to + name); copy(src, to + name + "/"); }
    else mp.FS.writeFile(to + name, fs.readFileSync(src));
  }
}
copy(dir, "/");
// A line "#--- next" splits the script into parts run one after the other, in one interpreter:
// between parts the C stack is unwound, the only time this port's gc.collect() frees garbage.
const parts = fs.readFileSync(script, "utf8").split("\n#--- next\n");
try {
  mp.runPython("import sys\nsys.path.insert(0, '/')\n");
  for (const part of parts) mp.runPython(part);
} catch (e) {
  console.error(String(e)); process.exitCode = 1;
}
// no process.exit(): it would cut off what is still on its way down a pipe
if (failed) process.exitCode = 1;
