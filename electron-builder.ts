import type { Configuration, FileAssociation } from 'electron-builder';

/**
 * `.blend` scenes can be opened with Renderdrop, as an alternative to Blender, never instead of it:
 * macOS and Linux list it as another handler; on Windows the installer adds it to "Open with" only
 * (resources/installer/windows-open-with.nsh), because NSIS file associations would make it the default.
 */
const BLEND: FileAssociation = {
  ext: 'blend',
  name: 'Blender scene',
  description: 'Blender scene',
  mimeType: 'application/x-blender',
  role: 'Viewer',
  rank: 'Alternate',
};

/**
 * A zip of a scene and its assets: offered only in macOS's "Open With" (rank Alternate). Windows
 * installers would make Renderdrop the handler of every .zip, so they do not register it.
 */
const ZIP: FileAssociation = {
  ext: 'zip',
  name: 'Scene bundle',
  description: 'Zip of a Blender scene and its assets',
  mimeType: 'application/zip',
  role: 'Viewer',
  rank: 'Alternate',
};

/**
 * Packaging of the desktop app (`npm run dist`): Windows NSIS, macOS dmg (hardened runtime; signed
 * with CSC_LINK/CSC_KEY_PASSWORD and notarised when APPLE_ID + APPLE_APP_SPECIFIC_PASSWORD +
 * APPLE_TEAM_ID, or APPLE_API_KEY + APPLE_API_KEY_ID + APPLE_API_ISSUER, are set), Linux AppImage
 * and deb. The Blender scripts and icons go beside the asar archive (Blender and the tray read them
 * as plain files); native modules are N-API prebuilds, so nothing is rebuilt for Electron.
 */
const config: Configuration = {
  appId: 'com.renderdrop.desktop',
  productName: 'Renderdrop',
  copyright: 'Copyright © Renderdrop',
  directories: { output: 'dist', buildResources: 'resources/icons' },
  files: ['package.json', 'out/main/**', 'out/preload/**', 'out/renderer/**', 'out/cli/**', '!**/*.map'],
  extraResources: [
    { from: 'resources/blender', to: 'resources/blender', filter: ['*.py'] },
    { from: 'addon/renderdrop_blender', to: 'addon/renderdrop_blender', filter: ['*.py', 'blender_manifest.toml'] },
    { from: 'resources/icons', to: 'resources/icons', filter: ['tray-*.png', '256x256.png', '512x512.png'] },
  ],
  asar: true,
  npmRebuild: false,
  icon: 'resources/icons/icon.png',
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    shortcutName: 'Renderdrop',
    include: 'resources/installer/windows-open-with.nsh',
  },
  mac: {
    target: [{ target: 'dmg', arch: ['arm64', 'x64'] }],
    category: 'public.app-category.graphics-design',
    hardenedRuntime: true,
    gatekeeperAssess: false,
    fileAssociations: [BLEND, ZIP],
  },
  dmg: {
    title: 'Renderdrop ${version}',
  },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Graphics',
    icon: 'resources/icons',
    executableName: 'renderdrop-desktop',
    synopsis: 'Send Blender scenes to a render farm',
    maintainer: 'Renderdrop maintainers',
    fileAssociations: [BLEND],
  },
  deb: {
    recommends: ['blender'],
  },
};

export default config;
