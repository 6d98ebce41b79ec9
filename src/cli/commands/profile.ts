import type { Command } from 'commander';
import { UsageError } from '../cli-errors';
import { parseBaseUrlOption } from '../options';
import type { CliDeps } from '../cli-deps';
import { cliAction, findProfile, isLoopbackUrl } from '../session';
import { type CliContext } from '../context';

/** Where a profile's key is: the keychain, the key file, the running app (This computer), nowhere, or unknown (the keychain would not say). */
type KeyState = 'keychain' | 'file' | 'app' | 'none' | 'unknown';

/** `renderdrop profile list|add|use|remove`: the servers Renderdrop knows. */
export function registerProfileCommands(program: Command, deps: CliDeps): void {
  const profile = program.command('profile').description('Manage profiles: the servers Renderdrop talks to, each with its own key.');

  profile
    .command('list')
    .description('List profiles; * marks the active one.')
    .option('--json', 'machine-readable output')
    .action(
      cliAction(deps, async (ctx, opts: { json?: boolean }) => {
        const settings = ctx.settings().get();
        const keys = await keyStates(ctx, settings.profiles.map((p) => p.id));
        if (opts.json) {
          const profiles = settings.profiles.map((p) => {
            const place = keys.get(p.id) ?? 'unknown';
            const stored = place === 'keychain' || place === 'file' || place === 'app';
            return { ...p, active: p.id === settings.activeProfileId, key: stored ? 'stored' : place, keyStore: stored ? place : null };
          });
          ctx.io.stdout.write(`${JSON.stringify({ profiles, activeProfileId: settings.activeProfileId, overrides: overrides(ctx) }, null, 2)}\n`);
          return;
        }
        const rows = [['', 'NAME', 'URL', 'KIND', 'KEY']];
        for (const p of settings.profiles) rows.push([p.id === settings.activeProfileId ? '*' : '', p.name, p.baseUrl, p.kind, keyLabel(keys.get(p.id) ?? 'unknown')]);
        const { formatTable } = await import('../output');
        const lines = formatTable(rows);
        const env = overrides(ctx);
        const notes: string[] = [];
        if (env.baseUrl) notes.push(`RENDERDROP_BASE_URL is set: commands talk to ${env.baseUrl}.`);
        if (env.apiKey) notes.push('RENDERDROP_API_KEY is set: it is used instead of a stored key.');
        if (notes.length > 0) lines.push('', ...notes);
        ctx.io.stdout.write(`${lines.join('\n')}\n`);
      }),
    );

  profile
    .command('add <name>')
    .description('Add a profile for a server.')
    .requiredOption('--base-url <url>', 'the server address, e.g. https://farm.example.com', parseBaseUrlOption)
    .option('--use', 'make it the active profile')
    .action(
      cliAction(deps, async (ctx, name: string, opts: { baseUrl: string; use?: boolean }) => {
        if (name.trim() === '') throw new UsageError('A profile needs a name.');
        const store = ctx.settings();
        const added = store.addProfile({ name: name.trim(), baseUrl: opts.baseUrl, kind: isLoopbackUrl(opts.baseUrl) ? 'local' : 'cloud' });
        if (opts.use) store.useProfile(added.id);
        const active = store.get().activeProfileId === added.id;
        ctx.io.stdout.write(
          `Added profile "${added.name}" (${added.baseUrl})${active ? ', now active' : ''}.\n` +
            `Store its API key with: renderdrop login --profile ${quote(added.name)}\n` +
            (active ? '' : `Switch to it with: renderdrop profile use ${quote(added.name)}\n`),
        );
      }),
    );

  profile
    .command('use <name>')
    .description('Make a profile the active one.')
    .action(
      cliAction(deps, async (ctx, name: string) => {
        const store = ctx.settings();
        const found = findProfile(store, name);
        if (!found) throw new UsageError(`No profile "${name}". List them with \`renderdrop profile list\`.`);
        store.useProfile(found.id);
        ctx.io.stdout.write(`Active profile: "${found.name}" (${found.baseUrl}).\n`);
      }),
    );

  profile
    .command('remove <name>')
    .description('Remove a profile and its stored key.')
    .action(
      cliAction(deps, async (ctx, name: string) => {
        const store = ctx.settings();
        const found = findProfile(store, name);
        if (!found) throw new UsageError(`No profile "${name}". List them with \`renderdrop profile list\`.`);
        await ctx.secrets.delete(found.id);
        store.removeProfile(found.id);
        ctx.io.stdout.write(`Removed profile "${found.name}" and its key.\n`);
      }),
    );
}

async function keyStates(ctx: CliContext, ids: string[]): Promise<Map<string, KeyState>> {
  const states = new Map<string, KeyState>();
  for (const id of ids) states.set(id, await ctx.secrets.where(id));
  const [{ localNodeDataDir, readLocalClientFile }, { THIS_COMPUTER_PROFILE_ID }] = await Promise.all([import('../../core/secrets'), import('../../shared/settings')]);
  if (states.get(THIS_COMPUTER_PROFILE_ID) === 'none' && (await readLocalClientFile(localNodeDataDir(ctx.settings().dir)))) states.set(THIS_COMPUTER_PROFILE_ID, 'app');
  return states;
}

function keyLabel(state: KeyState): string {
  if (state === 'unknown') return 'unknown (keychain unavailable)';
  if (state === 'file') return 'file (keys.json)';
  if (state === 'app') return 'from the running app';
  return state;
}

function overrides(ctx: CliContext): { baseUrl: string | null; apiKey: boolean } {
  return { baseUrl: ctx.io.env.RENDERDROP_BASE_URL?.trim() || null, apiKey: Boolean(ctx.io.env.RENDERDROP_API_KEY?.trim()) };
}

function quote(name: string): string {
  return /^[\w.-]+$/.test(name) ? name : `"${name.replace(/"/g, '\\"')}"`;
}
