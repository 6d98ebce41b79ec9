import type { ContractHandlers } from '../../shared/contract';
import { pathInHome } from './home-paths';

/**
 * The contract's handlers as browser mode's page may use them: every path on disk the page names (a
 * scene to submit, the download folder; the file browser already lists only home) must be inside the
 * artist's home folder, symlinks and `..` resolved. The desktop app keeps the plain handlers: its paths
 * come from the system's own dialogs and drops, and no other page can reach its IPC.
 */
export function homeConfinedHandlers(handlers: ContractHandlers, home: string): ContractHandlers {
  return {
    ...handlers,
    'submissions.submit': async (request) => {
      const files = await Promise.all(request.files.map(async (file) => ('path' in file ? { path: await pathInHome(home, file.path, 'scene') } : file)));
      return handlers['submissions.submit']({ ...request, files });
    },
    'settings.update': async (request) => {
      const { downloadDir } = request;
      if (downloadDir === undefined || downloadDir === null) return handlers['settings.update'](request);
      return handlers['settings.update']({ ...request, downloadDir: await pathInHome(home, downloadDir, 'download-folder') });
    },
  };
}
