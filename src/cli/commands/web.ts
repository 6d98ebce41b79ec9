import { InvalidArgumentError, type Command } from 'commander';
import type { SecretStore } from '../../core/secrets';
import type { CliDeps } from '../cli-deps';
import { thisCli } from '../session';

/** `renderdrop web`: the app in a browser, served on 127.0.0.1 with a one-time link. */
export function registerWebCommand(program: Command, deps: CliDeps): void {
  const { stdout, stderr, env } = deps.io;
  program
    .command('web')
    .description('Run the Renderdrop app in your browser (127.0.0.1 only; the printed link works once).')
    .option(
      '--port <port>',
      'port on 127.0.0.1 (0 picks a free one)',
      (v) => {
        if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('--port must be 0-65535.');
        return Number(v);
      },
      0,
    )
    .option('--open', 'open the link in the default browser')
    .action(async (opts: { port: number; open?: boolean }) => {
      const [{ AbsentKeychain, FileSecretStore, KEY_FILE_MEANING, KeyringSecretStore, keyFilePath }, { SettingsStore }, { createHost }, { systemOpenPath }, { rendererDir }, { openInBrowser }, { startWebServer }] = await Promise.all([
        import('../../core/secrets'),
        import('../../core/settings'),
        import('../../host/host'),
        import('../../host/jobs'),
        import('../../web/renderer-dir'),
        import('../../web/browser-launch'),
        import('../../web/web-server'),
      ]);
      const keychain = deps.secrets ?? new KeyringSecretStore();
      const available = await keychain.isAvailable();
      const secrets: SecretStore = available ? keychain : new AbsentKeychain();
      const settings = new SettingsStore({ env });
      const keyFile = new FileSecretStore(keyFilePath(settings.dir));
      if (!available) {
        stderr.write('warning: no system keychain is reachable; when you add an API key, the app asks whether to keep it in a file or only until it stops.\n');
      }
      const host = await createHost({
        secrets,
        env,
        settings,
        keyStore: available ? 'keychain' : 'memory',
        keyFallback: { kind: 'file', secrets: keyFile },
        cliCommand: { command: thisCli() },
        ...(available
          ? {}
          : {
              keyStoreNote: `No system keychain answered, so a farm's API key is kept where you choose when you add it: in a file, which survives restarts and the renderdrop command reads too, or only until Renderdrop stops. ${KEY_FILE_MEANING}`,
            }),
        shell: 'web',
      });
      const web = await startWebServer({ host, staticDir: rendererDir(env), port: opts.port });
      stdout.write(`Renderdrop is running. Open this link once (it carries a one-time token):\n${web.loginUrl}\n`);
      if (host.localNodeUrl) stdout.write(`The render node of "This computer" listens on ${host.localNodeUrl}\n`);
      let markStopped: () => void = () => undefined;
      const stopped = new Promise<void>((resolve) => (markStopped = resolve));
      if (opts.open) {
        await openInBrowser({ loginUrl: web.loginUrl, open: systemOpenPath, tokenUsed: web.tokenUsed, stopped }).catch((error: Error) =>
          stderr.write(`Could not open a browser: ${error.message} Open the link above yourself.\n`),
        );
      }
      await new Promise<void>((done) => {
        const stop = () => {
          markStopped();
          void web
            .close()
            .then(() => host.close())
            .finally(done);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
