import type { FolderView } from '../../shared/contract';
import type { AppPreferences } from '../environment';
import type { NamespaceHandlers } from '../namespace-handlers';
import { listFolder } from './folder-listing';

/** What the file browser's calls need. */
export interface FileHandlerDeps {
  /** The artist's home folder: the file browser never lists anything outside it. */
  home: string;
  prefs: Pick<AppPreferences, 'lastFolder' | 'setLastFolder'>;
}

/**
 * The `files.*` calls: the file browser of browser mode, which opens scenes by their path on this
 * computer. Without a path it opens the last folder listed (home when that is gone); the folder
 * listed is remembered.
 */
export function fileHandlers(deps: FileHandlerDeps): NamespaceHandlers<'files'> {
  return {
    'files.list': async ({ path, hidden }) => {
      const folder = await openFolder(deps, path, hidden ?? false);
      if (folder.path !== deps.prefs.lastFolder) await deps.prefs.setLastFolder(folder.path);
      return folder;
    },
  };
}

async function openFolder(deps: FileHandlerDeps, path: string | undefined, hidden: boolean): Promise<FolderView> {
  if (path !== undefined) return listFolder({ home: deps.home, path, hidden });
  const last = deps.prefs.lastFolder;
  if (last !== null) {
    try {
      return await listFolder({ home: deps.home, path: last, hidden });
    } catch {
      // The last folder is gone or no longer in home: start at home.
    }
  }
  return listFolder({ home: deps.home, hidden });
}
