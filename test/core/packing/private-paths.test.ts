import { describe, expect, it } from 'vitest';
import { allowedOutside, allowedSecret, inProject, privateLook, privateOutsideProject, secretPlace, secretRoot } from '../../../src/core/packing/private-paths';

describe('which files look private', () => {
  it.each([
    ['/home/ana/.ssh/id_ed25519', 'private-folder', '.ssh'],
    ['/home/ana/.ssh/config', 'private-folder', '.ssh'],
    ['/home/ana/.gnupg/pubring.kbx', 'private-folder', '.gnupg'],
    ['/home/ana/.aws/credentials', 'private-folder', '.aws'],
    ['/home/ana/.config/gh/hosts.yml', 'private-folder', '.config'],
    ['/home/ana/.kube/config', 'private-folder', '.kube'],
    ['/home/ana/.docker/config.json', 'private-folder', '.docker'],
    ['/home/ana/.password-store/bank.gpg', 'private-folder', '.password-store'],
    ['/home/ana/.mozilla/firefox/x.default/logins.json', 'private-folder', '.mozilla'],
    ['/home/ana/.thunderbird/p/key4.db', 'private-folder', '.thunderbird'],
    ['/home/ana/.local/share/keyrings/login.keyring', 'private-folder', '.local/share/keyrings'],
    ['/Users/ana/Library/Keychains/login.keychain-db', 'private-folder', 'Library/Keychains'],
    ['C:\\Users\\ana\\AppData\\Roaming\\Blender\\prefs.png', 'private-folder', 'AppData'],
    ['/etc/passwd', 'system-folder', '/etc'],
    ['/etc/ssl/certs/ca.png', 'system-folder', '/etc'],
    ['/proc/self/environ', 'system-folder', '/proc'],
    ['/sys/kernel/x', 'system-folder', '/sys'],
    ['/dev/random', 'system-folder', '/dev'],
    ['/root/notes.png', 'system-folder', '/root'],
    ['/var/lib/docker/x.png', 'system-folder', '/var/lib'],
    ['/private/etc/master.passwd', 'system-folder', '/private/etc'],
    ['C:\\Windows\\System32\\config\\SAM', 'system-folder', 'Windows'],
    ['d:\\windows\\repair\\sam', 'system-folder', 'windows'],
  ])('%s: %s (%s)', (path, rule, part) => {
    expect(privateLook(path)).toEqual({ rule, part });
  });

  it.each([
    'id_rsa', 'id_rsa.pub', 'id_ed25519', 'id_ed25519_sk', 'id_ecdsa', 'server.pem', 'site.key', 'cert.p12', 'cert.pfx', 'vault.kdbx', '.netrc', '.pgpass',
    'credentials', 'credentials.json', '.env', 'prod.env', '.env.local', 'client_secret.json', 'MySecrets.txt', 'github-token.txt', 'known_hosts', 'authorized_keys', 'shadow', 'passwd',
  ])('the name %s looks like a key or credential file', (name) => {
    expect(privateLook(`/home/ana/stuff/${name}`)).toEqual({ rule: 'key-name', part: name });
  });

  it.each([
    '/home/ana/proj/textures/wood.png',
    '/home/ana/library/hdri/studio.exr',
    '/mnt/share/env_map.hdr',
    '/mnt/share/env.hdr',
    '/home/ana/tex/keyboard.png',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    'C:\\Windows\\Fonts\\arial.ttf',
    'C:\\Users\\ana\\Documents\\tex\\wood.png',
    '/home/ana/etc/wood.png',
    '/home/ana/.cache/blender/thumb.png',
  ])('%s does not look private', (path) => {
    expect(privateLook(path)).toBeNull();
  });
});

describe('the project: the scene\'s folder and below it', () => {
  it('holds files below the scene\'s folder, not those beside or above it', () => {
    expect(inProject('/home/ana/proj/textures/a.png', '/home/ana/proj')).toBe(true);
    expect(inProject('/home/ana/proj/a.png', '/home/ana/proj')).toBe(true);
    expect(inProject('/home/ana/shared/a.png', '/home/ana/proj')).toBe(false);
    expect(inProject('/home/ana/project-2/a.png', '/home/ana/proj')).toBe(false);
    expect(inProject('C:\\Proj\\Tex\\a.png', 'c:\\proj')).toBe(true);
  });

  it('never counts a folder of keys or settings below it as part of it (a scene saved in the home folder)', () => {
    expect(inProject('/home/ana/.ssh/id_ed25519', '/home/ana')).toBe(false);
    expect(inProject('/home/ana/.config/app/token.json', '/home/ana')).toBe(false);
    expect(inProject('/home/ana/textures/a.png', '/home/ana')).toBe(true);
  });

  it('asks only about files outside the project that look private', () => {
    expect(privateOutsideProject('/etc/passwd', '/home/ana/proj')).toEqual({ rule: 'system-folder', part: '/etc' });
    expect(privateOutsideProject('/home/ana/.ssh/id_ed25519', '/home/ana/proj')).toEqual({ rule: 'private-folder', part: '.ssh' });
    expect(privateOutsideProject('/home/ana/.ssh/id_ed25519', '/home/ana')).toEqual({ rule: 'private-folder', part: '.ssh' });
    expect(privateOutsideProject('/home/ana/proj/secret-garden.png', '/home/ana/proj')).toBeNull();
    expect(privateOutsideProject('/home/ana/shared/wood.png', '/home/ana/proj')).toBeNull();
    expect(privateOutsideProject('/home/ana/shared/secret-garden.png', '/home/ana/proj')).toEqual({ rule: 'key-name', part: 'secret-garden.png' });
  });
});

describe('--allow-outside', () => {
  it('allows the file named, and every file below a folder named', () => {
    expect(allowedOutside('/etc/passwd', ['/etc/passwd'])).toBe(true);
    expect(allowedOutside('/home/ana/.ssh/id_ed25519', ['/home/ana/.ssh'])).toBe(true);
    expect(allowedOutside('/home/ana/.ssh/id_ed25519', ['/etc/passwd', '/home/ana/.ssh/'])).toBe(true);
    expect(allowedOutside('/home/ana/.ssh/id_ed25519', ['/home/ana/.ss'])).toBe(false);
    expect(allowedOutside('/etc/passwd', [])).toBe(false);
    expect(allowedOutside('/etc/shadow', ['/etc/passwd'])).toBe(false);
  });
});

describe('secret places: held even inside the project', () => {
  it.each([
    ['/home/ana/.bash_history', 'key-name', '.bash_history', '/home/ana/.bash_history'],
    ['/home/ana/.zsh_history', 'key-name', '.zsh_history', '/home/ana/.zsh_history'],
    ['/home/ana/.python_history', 'key-name', '.python_history', '/home/ana/.python_history'],
    ['/home/ana/.local/share/fish/fish_history', 'key-name', 'fish_history', '/home/ana/.local/share/fish/fish_history'],
    ['/run/secrets/db_password', 'system-folder', '/run', '/run'],
    ['/var/run/secrets/kubernetes.io/token', 'system-folder', '/var/run', '/var/run'],
    ['/home/ana/snap/chromium/common/chromium/Default/Login Data', 'private-folder', 'snap/chromium', '/home/ana/snap/chromium'],
    ['/home/ana/snap/firefox/common/.mozilla/firefox/p/logins.json', 'private-folder', 'snap/firefox', '/home/ana/snap/firefox'],
    ['/home/ana/.var/app/com.brave.Browser/config/x', 'private-folder', '.var/app', '/home/ana/.var/app'],
    ['/home/ana/.config/google-chrome/Default/Cookies', 'private-folder', '.config', '/home/ana/.config'],
    ['/Users/ana/Library/Application Support/Google/Chrome/Default/Login Data', 'private-folder', 'Library/Application Support', '/Users/ana/Library/Application Support'],
    ['/Users/ana/Library/Cookies/Cookies.binarycookies', 'private-folder', 'Library/Cookies', '/Users/ana/Library/Cookies'],
    ['C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data', 'private-folder', 'AppData', 'C:\\Users\\ana\\AppData'],
    ['/home/ana/Downloads/Login Data', 'key-name', 'Login Data', '/home/ana/Downloads/Login Data'],
  ])('%s: %s (%s), covering %s', (path, rule, part, root) => {
    const look = secretPlace(path);
    expect(look).toEqual({ rule, part });
    expect(secretRoot(path, look!)).toBe(root);
  });

  it('keeps loose hints (secret, token in a name) for files outside the project only', () => {
    expect(secretPlace('/home/ana/proj/secret-garden.png')).toBeNull();
    expect(privateLook('/home/ana/shared/secret-garden.png')).toEqual({ rule: 'key-name', part: 'secret-garden.png' });
  });

  it('lets an allowance reach a secret file only when it names the place or a path inside it', () => {
    const key = '/home/ana/.ssh/id_ed25519';
    expect(allowedSecret(key, '/home/ana/.ssh', ['/home/ana'])).toBe(false);
    expect(allowedSecret(key, '/home/ana/.ssh', ['/'])).toBe(false);
    expect(allowedSecret(key, '/home/ana/.ssh', ['/home/ana/.ssh'])).toBe(true);
    expect(allowedSecret(key, '/home/ana/.ssh', [key])).toBe(true);
    expect(allowedSecret('/home/ana/.bash_history', '/home/ana/.bash_history', ['/home/ana'])).toBe(false);
  });
});
