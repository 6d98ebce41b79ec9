import { addonStatus, findBlenders, inspectBlender, installAddon, refuseAddonLinks, setAddonEnabled, uninstallAddon, type AddonStatus, type BlenderInstall } from '../../core/addon';
import { CommandFailedError, UsageError } from '../cli-errors';
import { EXIT } from '../exit-codes';
import type { ExitCode } from '../exit-code-for';
import { safeText } from '../terminal';
import { thisCli } from '../session';
import { type CliContext } from '../context';

interface AddonOptions {
  blender?: string;
  json?: boolean;
}

/** One Blender and what was done to the add-on there. */
interface AddonRow {
  blender: BlenderInstall;
  status: AddonStatus | null;
  enabled: boolean | null;
  error: string | null;
}

const STATE_TEXT: Record<AddonStatus['state'], string> = {
  'not-installed': 'not installed',
  installed: 'installed',
  outdated: 'an older version is installed',
  modified: 'installed, with files changed since',
  foreign: 'another add-on of that name is installed (not by Renderdrop)',
};

async function blendersFor(ctx: CliContext, opts: AddonOptions): Promise<BlenderInstall[]> {
  const env = ctx.io.env as NodeJS.ProcessEnv;
  if (opts.blender !== undefined) {
    const one = await inspectBlender(opts.blender, { env });
    if (!one) throw new UsageError(`${opts.blender} is not a Blender that answers \`--version\`. Give the Blender program, or the folder it is in.`);
    return [one];
  }
  const found = await findBlenders({ env });
  if (found.length === 0) throw new CommandFailedError('No Blender was found on this computer (PATH, the usual install folders, Steam). Name one with --blender <path>.');
  return found;
}

function print(ctx: CliContext, rows: AddonRow[], json: boolean): ExitCode {
  if (json) {
    ctx.io.stdout.write(`${JSON.stringify({ blenders: rows }, null, 2)}\n`);
  } else {
    for (const row of rows) {
      const { blender, status } = row;
      const head = `Blender ${blender.version} (${blender.path})`;
      const tooOld = !blender.supported && status?.state === 'not-installed' ? 'too old for the add-on (it needs Blender 3.3 or newer)' : null;
      const what = row.error ?? tooOld ?? (status ? describe(status, row.enabled) : '');
      ctx.io.stdout.write(`${safeText(`${head}: ${what}`)}\n`);
    }
  }
  return rows.some((row) => row.error !== null) ? EXIT.failure : EXIT.ok;
}

function describe(status: AddonStatus, enabled: boolean | null): string {
  const version = status.installedVersion && status.state !== 'installed' ? ` (${status.installedVersion}; this is ${status.version})` : status.state === 'installed' ? ` (${status.version})` : '';
  const on = enabled === null ? '' : enabled ? ', enabled' : ', not enabled';
  return `${STATE_TEXT[status.state]}${version}${on}. Folder: ${status.folder}`;
}

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `renderdrop addon install`: copies the add-on into each Blender's user add-ons and enables it. */
export async function installCommand(ctx: CliContext, opts: AddonOptions & { enable?: boolean }): Promise<ExitCode> {
  const blenders = await blendersFor(ctx, opts);
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const rows: AddonRow[] = [];
  for (const blender of blenders) {
    if (!blender.supported && opts.blender === undefined) continue;
    try {
      const status = await installAddon(blender, { cli: thisCli() });
      const enabled = opts.enable === false ? null : await setAddonEnabled(blender, true, { env });
      rows.push({ blender, status, enabled, error: null });
    } catch (error) {
      rows.push({ blender, status: null, enabled: null, error: failure(error) });
    }
  }
  if (rows.length === 0) throw new CommandFailedError(`The add-on needs Blender 3.3 or newer; the Blenders found are older (${blenders.map((b) => b.version).join(', ')}).`);
  return print(ctx, rows, Boolean(opts.json));
}

/** `renderdrop addon uninstall`: removes what Renderdrop installed, and turns the add-on off. */
export async function uninstallCommand(ctx: CliContext, opts: AddonOptions): Promise<ExitCode> {
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const rows: AddonRow[] = [];
  for (const blender of await blendersFor(ctx, opts)) {
    const before = await addonStatus(blender);
    if (before.state === 'not-installed' || before.state === 'foreign') {
      if (opts.blender !== undefined) rows.push({ blender, status: before, enabled: null, error: null });
      continue;
    }
    try {
      await refuseAddonLinks(blender);
      const enabled = await setAddonEnabled(blender, false, { env }).catch(() => null);
      rows.push({ blender, status: await uninstallAddon(blender), enabled, error: null });
    } catch (error) {
      rows.push({ blender, status: null, enabled: null, error: failure(error) });
    }
  }
  if (rows.length === 0 && !opts.json) {
    ctx.io.stdout.write('The add-on is not installed for any Blender found.\n');
    return EXIT.ok;
  }
  return print(ctx, rows, Boolean(opts.json));
}

/** `renderdrop addon status`: each Blender found and the add-on's state there. */
export async function statusCommand(ctx: CliContext, opts: AddonOptions): Promise<ExitCode> {
  const rows: AddonRow[] = [];
  for (const blender of await blendersFor(ctx, opts)) {
    const status = await addonStatus(blender);
    rows.push({ blender, status, enabled: null, error: null });
  }
  return print(ctx, rows, Boolean(opts.json));
}
