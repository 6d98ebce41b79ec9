import { posix, win32 } from 'node:path';

/**
 * Why a path looks private: it passes through a folder that holds keys, passwords or settings
 * (`.ssh`, `.gnupg`, `AppData`...), it lies in a system folder (`/etc`, `C:\Windows`...), or its
 * name is that of a key or credential file (`id_ed25519`, `*.pem`, `.env`, `passwd`...). `part` is
 * the folder or name that matched, as the path spells it.
 */
export interface PrivateLook {
  rule: 'private-folder' | 'system-folder' | 'key-name';
  part: string;
}

/**
 * Folders (any depth) whose files are keys, passwords, tokens or personal settings: also every browser
 * and password-manager profile of Linux (`.config`, `.mozilla`, `.pki`) and Windows (`AppData`).
 */
const PRIVATE_FOLDERS = new Set([
  '.ssh', '.gnupg', '.gnupg2', '.aws', '.azure', '.config', '.kube', '.docker', '.password-store', '.mozilla', '.thunderbird', '.gcloud', '.pki', '.1password',
  'appdata', 'application data',
]);

/**
 * Runs of folders (any depth) that hold keyrings, browser and password-manager profiles: Linux
 * keyrings, snap and Flatpak apps, and macOS's keychains, app data, cookies, Safari and mail.
 */
const PRIVATE_RUNS: readonly (readonly string[])[] = [
  ['.local', 'share', 'keyrings'],
  ['.var', 'app'],
  ['snap', 'firefox'],
  ['snap', 'chromium'],
  ['snap', 'brave'],
  ['snap', 'opera'],
  ['snap', 'thunderbird'],
  ['snap', 'bitwarden'],
  ['snap', 'keepassxc'],
  ['library', 'keychains'],
  ['library', 'application support'],
  ['library', 'cookies'],
  ['library', 'safari'],
  ['library', 'containers'],
  ['library', 'group containers'],
  ['library', 'mail'],
  ['library', 'messages'],
];

/** Top folders of a Unix-like system that hold its own files (and its secrets: `/run/secrets`), never an artist's. */
const SYSTEM_ROOTS: readonly (readonly string[])[] = [
  ['etc'], ['proc'], ['sys'], ['dev'], ['root'], ['boot'], ['run'], ['var', 'run'], ['var', 'lib'], ['private', 'etc'], ['private', 'var'],
];

/** Folders below a Windows drive that hold the system's files; `Windows\Fonts` is left to fonts. */
const WINDOWS_SYSTEM = new Set(['windows', 'programdata']);

/** Names of files that hold keys, passwords, tokens or what a person typed (shell histories, browser logins). */
const KEY_NAMES: readonly RegExp[] = [
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([._-].*)?$/,
  /^\.[\w.-]*history$/,
  /^fish_history$/,
  /^\.(viminfo|lesshst)$/,
  /^(login data|login data for account|web data|cookies|local state)$/,
  /^(key[34]\.db|logins\.json|cookies\.sqlite|signons\.sqlite|cert[89]\.db)$/,
  /\.(pem|key|p12|pfx|kdbx|ppk|jks|keystore|gpg)$/,
  /^[._]netrc$/,
  /^\.pgpass$/,
  /^\.git-credentials$/,
  /^\.(npmrc|pypirc|htpasswd)$/,
  /^credentials(\..*)?$/,
  /^\.env(\..*)?$/,
  /\.env$/,
  /^(known_hosts|authorized_keys)(\..*)?$/,
  /^g?shadow-?$/,
  /^passwd-?$/,
];

/** Words in a name that make a file outside the project look private, though not one inside it (`secret-garden.png`). */
const LOOSE_KEY_NAMES: readonly RegExp[] = [/secret/, /token/];

/** Whether a path is spelt the Windows way (a drive letter or a `\\server\share` path). */
function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

function api(path: string): typeof posix {
  return isWindowsPath(path) ? win32 : posix;
}

/** The folders and name of an absolute path, without its root (drive, share or `/`). */
function segments(path: string): string[] {
  const paths = api(path);
  const normal = paths.normalize(path);
  const root = paths.parse(normal).root;
  return normal.slice(root.length).split(/[\\/]/).filter(Boolean);
}

function startsWithRun(parts: readonly string[], run: readonly string[], at: number): boolean {
  return run.every((name, i) => parts[at + i]?.toLowerCase() === name);
}

/** The first folder (or run of folders) among `folders` that holds keys, passwords or settings. */
function privateFolder(folders: readonly string[]): PrivateLook | null {
  for (let i = 0; i < folders.length; i++) {
    if (PRIVATE_FOLDERS.has(folders[i]!.toLowerCase())) return { rule: 'private-folder', part: folders[i]! };
    const run = PRIVATE_RUNS.find((r) => startsWithRun(folders, r, i));
    if (run) return { rule: 'private-folder', part: folders.slice(i, i + run.length).join('/') };
  }
  return null;
}

/** The system folder an absolute path lies in, or null. */
function systemFolder(path: string, folders: readonly string[]): PrivateLook | null {
  if (isWindowsPath(path)) {
    const top = folders[0]?.toLowerCase();
    if (top === undefined || !WINDOWS_SYSTEM.has(top) || (top === 'windows' && folders[1]?.toLowerCase() === 'fonts')) return null;
    return { rule: 'system-folder', part: folders[0]! };
  }
  const system = SYSTEM_ROOTS.find((run) => startsWithRun(folders, run, 0));
  return system ? { rule: 'system-folder', part: `/${folders.slice(0, system.length).join('/')}` } : null;
}

/**
 * Why a file on disk (an absolute path, Unix or Windows) looks private, or null when nothing about
 * its folders or name says so. Folder and file names are compared without regard to case.
 */
export function privateLook(path: string): PrivateLook | null {
  const look = secretPlace(path);
  if (look) return look;
  const name = segments(path).pop() ?? '';
  return LOOSE_KEY_NAMES.some((pattern) => pattern.test(name.toLowerCase())) ? { rule: 'key-name', part: name } : null;
}

/**
 * Whether a file lies in a known secret place (a folder of keys, passwords, settings or a browser
 * profile, a system folder) or is named like a key, credential or history file: such a file is held
 * even inside the project. Looser hints (`secret`, `token` in a name) count only outside it (privateLook).
 */
export function secretPlace(path: string): PrivateLook | null {
  const parts = segments(path);
  const name = parts.pop() ?? '';
  const folder = systemFolder(path, parts) ?? privateFolder(parts);
  if (folder) return folder;
  const lower = name.toLowerCase();
  return KEY_NAMES.some((pattern) => pattern.test(lower)) ? { rule: 'key-name', part: name } : null;
}

/**
 * The folder (or, for a name, the file) a secret place covers, absolute: an allowance lets a file of it
 * travel only when it names that place or something inside it, never a folder around it (`~`).
 */
export function secretRoot(path: string, look: PrivateLook): string {
  if (look.rule === 'key-name') return path;
  const paths = api(path);
  const normal = paths.normalize(path);
  const root = paths.parse(normal).root;
  const parts = normal.slice(root.length).split(/[\\/]/).filter(Boolean);
  const depth = look.rule === 'system-folder' && !isWindowsPath(path) ? look.part.split('/').filter(Boolean).length : placeDepth(parts, look.part);
  return paths.join(root, ...parts.slice(0, depth));
}

/** How many leading parts of `parts` reach the end of the folder run `part` (first match). */
function placeDepth(parts: readonly string[], part: string): number {
  const run = part.split('/').map((p) => p.toLowerCase());
  for (let i = 0; i < parts.length; i++) if (startsWithRun(parts, run, i)) return i + run.length;
  return parts.length;
}

/** Whether `path` is `folder` itself or lies below it (both absolute, compared as spelt). */
export function isWithin(path: string, folder: string): boolean {
  const paths = api(folder);
  const rel = paths.relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !paths.isAbsolute(rel));
}

/**
 * Whether a file belongs to the scene's project. The project is the folder that holds the scene and
 * everything below it, except folders of keys and settings (`.ssh`, `.gnupg`...) below it: a scene
 * saved in the home folder does not make `~/.ssh` part of it. Files reached by `//../` paths are
 * outside the project.
 */
export function inProject(path: string, projectFolder: string): boolean {
  if (!isWithin(path, projectFolder)) return false;
  const below = api(projectFolder).relative(projectFolder, path).split(/[\\/]/);
  return privateFolder(below.slice(0, -1)) === null;
}

/**
 * Why a file outside the scene's project looks private, beyond being outside it; null when it is in
 * the project or nothing more about it says so.
 */
export function privateOutsideProject(path: string, projectFolder: string): PrivateLook | null {
  if (inProject(path, projectFolder)) return null;
  return privateLook(path);
}

/** Whether one of the allowed paths (a file, or a folder holding it) allows a file to travel. */
export function allowedOutside(path: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => isWithin(path, entry));
}

/** Whether an allowance reaches a file of a secret place: it names the place itself or a path inside it. */
export function allowedSecret(path: string, place: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => isWithin(path, entry) && isWithin(entry, place));
}

/** Why a file looks private, in a few words for the artist. */
export function privateWords(look: PrivateLook): string {
  switch (look.rule) {
    case 'private-folder':
      return `in ${look.part}, a folder of keys, passwords, settings or a browser's profile`;
    case 'system-folder':
      return `in ${look.part}, a system folder`;
    case 'key-name':
      return 'named like a key, password, token or history file';
  }
}
