// Draws the app icon and the tray icons into resources/icons as PNG files (run: node scripts/make-icons.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Buffer } from 'node:buffer';
import { crc32, deflateSync } from 'node:zlib';

const OUT = join(import.meta.dirname, '..', 'resources', 'icons');

const COLORS = {
  background: [27, 32, 48],
  accent: [76, 154, 255],
  idle: [154, 160, 170],
  error: [229, 72, 77],
  white: [255, 255, 255],
};

function segmentDistance(px, py, ax, ay, bx, by) {
  const vx = bx - ax;
  const vy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(px - ax - t * vx, py - ay - t * vy);
}

function roundedRectDistance(px, py, inset, radius) {
  const qx = Math.abs(px - 0.5) - (0.5 - inset - radius);
  const qy = Math.abs(py - 0.5) - (0.5 - inset - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

const capsule = (ax, ay, bx, by, width) => (x, y) => segmentDistance(x, y, ax, ay, bx, by) - width;
const disc = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
const union = (...shapes) => (x, y) => Math.min(...shapes.map((s) => s(x, y)));

const downArrow = (scale) =>
  union(
    capsule(0.5, 0.5 - 0.17 * scale, 0.5, 0.5 + 0.12 * scale, 0.05 * scale),
    capsule(0.5 - 0.13 * scale, 0.5 + 0.0 * scale, 0.5, 0.5 + 0.13 * scale, 0.05 * scale),
    capsule(0.5 + 0.13 * scale, 0.5 + 0.0 * scale, 0.5, 0.5 + 0.13 * scale, 0.05 * scale),
  );
const exclamation = union(capsule(0.5, 0.27, 0.5, 0.55, 0.07), disc(0.5, 0.72, 0.075));

/** Paints layers (shape, colour) back to front with anti-aliased edges into an RGBA buffer. */
function paint(size, layers) {
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      const v = (y + 0.5) / size;
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const [shape, color] of layers) {
        const coverage = Math.max(0, Math.min(1, 0.5 - shape(u, v) * size));
        if (coverage === 0) continue;
        const outA = coverage + a * (1 - coverage);
        r = (color[0] * coverage + r * a * (1 - coverage)) / outA;
        g = (color[1] * coverage + g * a * (1 - coverage)) / outA;
        b = (color[2] * coverage + b * a * (1 - coverage)) / outA;
        a = outA;
      }
      pixels.set([Math.round(r), Math.round(g), Math.round(b), Math.round(a * 255)], (y * size + x) * 4);
    }
  }
  return pixels;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = [];
  for (let y = 0; y < size; y++) rows.push(Buffer.from([0]), rgba.subarray(y * size * 4, (y + 1) * size * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const appIcon = [
  [(x, y) => roundedRectDistance(x, y, 0.06, 0.2), COLORS.background],
  [disc(0.5, 0.5, 0.31), COLORS.accent],
  [downArrow(1.2), COLORS.white],
];
const trayIcon = (color, mark) => [
  [disc(0.5, 0.5, 0.47), color],
  [mark, COLORS.white],
];
const TRAY = {
  idle: trayIcon(COLORS.idle, downArrow(1.5)),
  active: trayIcon(COLORS.accent, downArrow(1.5)),
  error: trayIcon(COLORS.error, exclamation),
};

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'icon.png'), png(1024, paint(1024, appIcon)));
for (const size of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(OUT, `${size}x${size}.png`), png(size, paint(size, appIcon)));
for (const [state, layers] of Object.entries(TRAY)) {
  writeFileSync(join(OUT, `tray-${state}.png`), png(16, paint(16, layers)));
  writeFileSync(join(OUT, `tray-${state}@2x.png`), png(32, paint(32, layers)));
}
console.log(`icons written to ${OUT}`);
