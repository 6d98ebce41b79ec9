/**
 * Structure checks that ESLint's per-file rules cannot make, run by `npm run lint`:
 * - no import circle between modules of src/ (type-only imports included: a circle is a circle);
 * - no exported name declared in two files of src/ (re-exports through an index.ts do not count);
 * - no folder of src/ with more than 20 loose files;
 * - no file of src/ longer than 400 lines (split it by concept);
 * - rooms of one layer (the folders directly under src/<layer>) import each other only through the
 *   room's index.ts, as layers do (static, re-exports and dynamic imports alike).
 * Prints one line per finding and exits 1 when there is any.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const srcDir = join(root, 'src');
const MAX_LOOSE_FILES = 20;
const MAX_FILE_LINES = 400;

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* not this one */
    }
  }
  return null;
}

/** Module specifiers of a file, the names it declares and exports itself, and its number of lines. */
function readModule(file) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const imports = [];
  const exported = [];
  const isExported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;
  for (const stmt of sf.statements) {
    if ((ts.isImportDeclaration(stmt) || ts.isExportDeclaration(stmt)) && stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier)) {
      imports.push(stmt.moduleSpecifier.text);
    } else if (isExported(stmt)) {
      if (ts.isVariableStatement(stmt)) {
        for (const decl of stmt.declarationList.declarations) if (ts.isIdentifier(decl.name)) exported.push(decl.name.text);
      } else if ('name' in stmt && stmt.name && ts.isIdentifier(stmt.name)) {
        exported.push(stmt.name.text);
      }
    }
  }
  (function visit(node) {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      imports.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  })(sf);
  return { imports, exported, lines };
}

function findCircles(graph) {
  const circles = [];
  const state = new Map();
  const stack = [];
  function visit(node) {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return circles;
}

/** The room a file of src/ lies in (`<layer>/<room>`), or null for a file at a layer's root. */
function roomOf(file) {
  const parts = relative(srcDir, file).split(sep);
  return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : null;
}

/** Whether `target` is what a file in another room of the same layer may not import: anything of a room but its index. */
function reachesIntoRoom(file, target) {
  const from = roomOf(file);
  const to = roomOf(target);
  if (!from || !to || from === to || from.split('/')[0] !== to.split('/')[0]) return false;
  return !/^index\.tsx?$/.test(relative(join(srcDir, to), target));
}

const files = sourceFiles(srcDir);
const graph = new Map();
const declaredIn = new Map();
const lineCounts = new Map();
for (const file of files) {
  const { imports, exported, lines } = readModule(file);
  lineCounts.set(file, lines);
  graph.set(file, imports.map((spec) => resolveImport(file, spec)).filter(Boolean));
  for (const name of new Set(exported)) declaredIn.set(name, [...(declaredIn.get(name) ?? []), file]);
}

const problems = [];
const rel = (file) => relative(root, file);
for (const circle of findCircles(graph)) problems.push(`import circle: ${circle.map(rel).join(' -> ')}`);
for (const [name, where] of declaredIn) {
  if (where.length > 1) problems.push(`exported name "${name}" is declared in ${where.length} files: ${where.map(rel).join(', ')}`);
}
const loose = new Map();
for (const file of files) loose.set(dirname(file), (loose.get(dirname(file)) ?? 0) + 1);
for (const [dir, count] of loose) {
  if (count > MAX_LOOSE_FILES) problems.push(`${rel(dir)} holds ${count} loose files (at most ${MAX_LOOSE_FILES}): group them into folders`);
}
for (const [file, targets] of graph) {
  for (const target of targets) {
    if (reachesIntoRoom(file, target)) problems.push(`${rel(file)} imports ${rel(target)}: rooms of one layer import each other only through the room's index.ts (import '${relative(dirname(file), join(srcDir, roomOf(target))).split(sep).join('/')}')`);
  }
}
for (const [file, lines] of lineCounts) {
  if (lines > MAX_FILE_LINES) problems.push(`${rel(file)} has ${lines} lines (at most ${MAX_FILE_LINES}): split it into modules by concept`);
}

for (const line of problems) console.log(line);
if (problems.length > 0) {
  console.log(`check-structure: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  // exitCode rather than exit(): a piped stdout is flushed before the process ends.
  process.exitCode = 1;
} else {
  console.log(`check-structure: ${files.length} modules, no circle, no name declared twice, no folder over ${MAX_LOOSE_FILES} loose files, no file over ${MAX_FILE_LINES} lines, rooms reached only through their index`);
}
