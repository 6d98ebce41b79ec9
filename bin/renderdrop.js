#!/usr/bin/env node
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`renderdrop needs Node.js 22.12 or newer (this is ${process.versions.node}).\n`);
  process.exit(1);
}
try {
  await import('../out/cli/renderdrop.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('out/cli/renderdrop.js')) {
    process.stderr.write('renderdrop is not built yet: run `npm run build` first.\n');
    process.exit(1);
  }
  throw err;
}
