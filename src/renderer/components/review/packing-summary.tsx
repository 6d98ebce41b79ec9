import type { PackingView, PrivateFileView, SceneFilesView, SubmissionView } from '../../../shared/contract';
import { command } from '../../lib';
import { useFileBrowserStore } from '../../stores';
import { countOf, formatBytes } from '../../../shared/text';

/**
 * What the review knows of the files a scene uses: how many were found on this computer and travel,
 * how many are truly gone, or (a scene dropped in the browser) that they could not be checked, with the
 * way to open the scene from disk instead.
 */
export function SceneFilesLine(props: { files: SceneFilesView | undefined; submissionId: string; fileName: string }) {
  const files = props.files;
  if (!files) return null;
  if (files.bytesOnly && files.unchecked > 0) {
    return (
      <div className="scene-files" data-testid="scene-files">
        <p className="hint">
          The browser sent only this scene: {countOf(files.unchecked, 'file')} it uses could not be checked, and the farm renders without {files.unchecked === 1 ? 'it' : 'them'}.
        </p>
        <button type="button" onClick={() => useFileBrowserStore.getState().show({ replaces: props.submissionId, note: `Find ${props.fileName} in its folder: Renderdrop sends it with the files it uses.` })}>
          Open it from disk instead
        </button>
      </div>
    );
  }
  if (files.found === 0 && files.gone === 0) return null;
  const found = files.found > 0 ? `${countOf(files.found, 'file')} found on this computer ${files.found === 1 ? 'travels' : 'travel'} with the scene.` : '';
  const gone = files.gone > 0 ? `${countOf(files.gone, 'file')} it uses ${files.gone === 1 ? 'is' : 'are'} not on this computer (see below).` : '';
  return (
    <p className="hint scene-files" data-testid="scene-files">
      {[found, gone].filter(Boolean).join(' ')}
    </p>
  );
}

/** "14 files, 320 MB travel with the scene", or nothing when the scene needs no other file. */
export function PackingLine(props: { packing: PackingView | null }) {
  const packing = props.packing;
  if (packing === null || packing.files <= 1) return null;
  return (
    <p className="muted packing-line">
      {packing.files} files, {formatBytes(packing.bytes)} travel with the scene
    </p>
  );
}

/**
 * A scene held before upload because files it uses are missing, or because files are held at the
 * edge of its project (outside it, secret, hard-linked): which, by the artist's path and why, and the
 * choice to send it (leaving the held files out unless the artist sends them anyway, or takes the
 * folder offered around them as the scene's project) or to cancel.
 */
export function MissingFilesChoice(props: { submission: SubmissionView }) {
  const s = props.submission;
  const missing = s.packing?.missing ?? [];
  const held = (s.packing?.privateFiles ?? []).filter((file) => !file.allowed);
  const unchecked = missing.filter((file) => file.unchecked).length;
  const count = missing.length === 1 ? '1 file it uses is missing' : `${missing.length} files it uses are missing`;
  const openFromDisk = s.bytesOnly === true && unchecked > 0;
  const send = (privateFiles: 'send' | 'leave-out') => void command('submissions.continue', { submissionId: s.id, ...(held.length > 0 ? { privateFiles } : {}) }, { what: `send ${s.fileName}` });
  const suggested = s.packing?.suggestedProject;
  const takeProject = (project: string) => void command('submissions.continue', { submissionId: s.id, project }, { what: `send ${s.fileName}` });
  return (
    <div className="missing-files">
      {missing.length > 0 && (openFromDisk ? (
        <p className="hint">
          The browser sent only this scene, not the folder around it, so {unchecked === 1 ? 'a file it uses' : `${unchecked} files it uses`} could not be checked: {unchecked === 1 ? 'it' : 'they'} may
          well be on this computer. Open the scene from disk to send it with its files.
        </p>
      ) : (
        <p className="hint">{count}; the farm would render without {missing.length === 1 ? 'it' : 'them'}.</p>
      ))}
      {missing.length > 0 && (
        <ul className="missing-list" aria-label={`Missing files of ${s.fileName}`}>
          {missing.map((file, index) => (
            <li key={`${file.path}-${index}`}>
              <span className="missing-path">{file.path}</span>
              <span className="muted">
                {file.kind} “{file.owner}”: {file.reason}
              </span>
            </li>
          ))}
        </ul>
      )}
      {held.length > 0 && <PrivateFilesList files={held} fileName={s.fileName} project={s.packing?.project} alsoMissing={missing.length > 0} />}
      <div className="actions">
        {openFromDisk && (
          <button type="button" className="primary" onClick={() => useFileBrowserStore.getState().show({ replaces: s.id, note: `Find ${s.fileName} in its folder: Renderdrop sends it with the files it uses.` })}>
            Open it from disk instead
          </button>
        )}
        {held.length > 0 ? (
          <>
            <button type="button" className={openFromDisk ? '' : 'primary'} autoFocus onClick={() => send('leave-out')}>
              Leave them out
            </button>
            <button type="button" onClick={() => send('send')}>
              Send them anyway
            </button>
            {suggested && (
              <button type="button" title={`Take ${suggested} as the project of ${s.fileName} (remembered): its files travel; secret and hard-linked files stay out`} onClick={() => takeProject(suggested)}>
                Use {folderName(suggested)} as the project
              </button>
            )}
          </>
        ) : (
          <button type="button" className={openFromDisk ? '' : 'primary'} onClick={() => send('leave-out')}>
            Continue anyway
          </button>
        )}
        <button type="button" onClick={() => void command('submissions.discard', { submissionId: s.id }, { what: `cancel ${s.fileName}` })}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * The files held at the edge of a held scene's project, told apart from the missing ones and grouped
 * by folder (a folder that was not read stands alone).
 */
function PrivateFilesList(props: { files: PrivateFileView[]; fileName: string; project: string | undefined; alsoMissing: boolean }) {
  const one = props.files.length === 1;
  return (
    <>
      <p className="hint">
        {one ? 'This file is' : 'These files are'} outside the project{props.project ? ` (${props.project})` : ''}, or {one ? 'is a file' : 'are files'} Renderdrop never sends unasked. {one ? 'It is' : 'They are'} left out unless you send{' '}
        {one ? 'it' : 'them'}
        {props.alsoMissing ? '; either way the scene goes without the missing files.' : '.'}
      </p>
      <ul className="missing-list private-list" aria-label={`Held files of ${props.fileName}`}>
        {byFolder(props.files).map(([folder, files]) => (
          <li key={folder}>
            <span className="missing-path">{folder}</span>
            {files.map((file, index) => (
              <span key={`${file.path}-${index}`} className="held-file">
                {!file.folder && <span className="missing-path">{baseName(file.path)}</span>}
                <span className="muted">
                  {file.kind} “{file.owner}”: {file.why}
                </span>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Held files by folder (a folder not read is its own group), folders in order. */
function byFolder(files: PrivateFileView[]): [string, PrivateFileView[]][] {
  const groups = new Map<string, PrivateFileView[]>();
  for (const file of files) {
    const folder = file.folder ? file.path : parentOf(file.path);
    groups.set(folder, [...(groups.get(folder) ?? []), file]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut <= 0 ? path.slice(0, cut + 1) : path.slice(0, cut);
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The last name of a folder's path, for a button. */
function folderName(path: string): string {
  return baseName(path.replace(/[\\/]+$/, '')) || path;
}
