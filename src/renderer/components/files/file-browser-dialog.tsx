import { useEffect, useId, useRef, useState } from 'react';
import type { FileEntryView } from '../../../shared/contract';
import { command, type PickedScene, submitPaths, useDialogFocus } from '../../lib';
import { type FileBrowserRequest, useFileBrowserStore } from '../../stores';
import { FileList, isScene } from './file-list';
import { useFolder } from './use-folder';

/** Renderdrop's file browser while it is open (browser mode's way to open scenes from this computer). */
export function FileBrowser() {
  const open = useFileBrowserStore((s) => s.open);
  return open ? <FileBrowserDialog request={open} /> : null;
}

function openLabel(count: number): string {
  return count <= 1 ? 'Open scene' : `Open ${count} scenes`;
}

/**
 * The file browser: a breadcrumb from the home folder, the folder's entries (folders first), and the
 * scenes chosen so far (in any folder). Focus stays inside until it closes; Escape closes it and focus
 * goes back where it was. Picked scenes are submitted by their path on this computer.
 */
function FileBrowserDialog(props: { request: FileBrowserRequest }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState(false);
  const { folder, error, loading, go } = useFolder(hidden, props.request.start);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Map<string, PickedScene>>(new Map());
  const close = () => useFileBrowserStore.getState().close();
  useDialogFocus(box, close);

  useEffect(() => {
    setActive(0);
    box.current?.querySelector<HTMLElement>('[role="listbox"]')?.focus();
  }, [folder?.path]);

  const choosing = props.request.chooseFolder;
  const pick = (scenes: PickedScene[]) => {
    if (scenes.length === 0 || choosing) return;
    close();
    void submitPaths(scenes).then(() => {
      const replaces = props.request.replaces;
      if (replaces) void command('submissions.discard', { submissionId: replaces }, { what: 'cancel the scene sent from the browser' });
    });
  };
  const asPicked = (entry: FileEntryView): PickedScene => ({ name: entry.name, path: entry.path, size: entry.size ?? 0 });
  const toggle = (entry: FileEntryView) => {
    if (choosing) return;
    setChosen((now) => {
      const next = new Map(now);
      if (next.has(entry.path)) next.delete(entry.path);
      else next.set(entry.path, asPicked(entry));
      return next;
    });
  };
  const chooseShownFolder = () => {
    if (!folder || !choosing) return;
    close();
    choosing.onChoose(folder.path);
  };
  const openEntry = (entry: FileEntryView) => {
    if (entry.kind === 'folder') go(entry.path);
    else if (isScene(entry)) pick([...new Map([...chosen, [entry.path, asPicked(entry)]]).values()]);
  };

  return (
    <div className="backdrop backdrop-centered">
      <div className="sheet file-browser" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={box} tabIndex={-1}>
        <div className="file-browser-header">
          <h2 id={titleId}>{choosing ? choosing.title : 'Open scenes from this computer'}</h2>
          {props.request.note && <p className="hint">{props.request.note}</p>}
          {folder && <Breadcrumb crumbs={folder.crumbs} onGo={go} />}
        </div>
        {error && (
          <p className="hint hint-error" role="alert">
            {error}
          </p>
        )}
        {folder ? (
          <FileList folder={folder} active={active} selected={new Set(chosen.keys())} onActive={setActive} onOpen={openEntry} onToggle={toggle} onUp={() => folder.parent && go(folder.parent)} />
        ) : (
          <p className="muted file-list-empty" role="status">
            {loading ? 'Reading your home folder…' : ''}
          </p>
        )}
        <BrowserFooter
          hidden={hidden}
          onHidden={setHidden}
          chosen={chosen.size}
          choosing={choosing ? chooseShownFolder : null}
          onCancel={close}
          onOpen={() => pick([...chosen.values()])}
        />
      </div>
    </div>
  );
}

/** The keys, "Show hidden files", how many scenes are chosen, and Cancel with Open (or "Use this folder"). */
function BrowserFooter(props: { hidden: boolean; onHidden(hidden: boolean): void; chosen: number; choosing: (() => void) | null; onCancel(): void; onOpen(): void }) {
  const { choosing } = props;
  return (
    <>
      <p className="hint file-browser-keys">
        {choosing
          ? 'Arrow keys move, Enter opens a folder, Backspace goes up. “Use this folder” chooses the folder shown.'
          : 'Arrow keys move, Enter opens a folder or a scene, Space chooses several scenes, Backspace goes up.'}
      </p>
      <div className="file-browser-footer">
        <label className="file-browser-hidden">
          <input type="checkbox" checked={props.hidden} onChange={(e) => props.onHidden(e.target.checked)} /> Show hidden files
        </label>
        <span className="muted file-browser-count" aria-live="polite">
          {props.chosen === 0 ? '' : props.chosen === 1 ? '1 scene chosen' : `${props.chosen} scenes chosen`}
        </span>
        <div className="actions">
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
          {choosing ? (
            <button type="button" className="primary" onClick={choosing}>
              Use this folder
            </button>
          ) : (
            <button type="button" className="primary" disabled={props.chosen === 0} onClick={props.onOpen}>
              {openLabel(props.chosen)}
            </button>
          )}
        </div>
      </div>
    </>
  );
}

/** Home and the folders down to this one; each but the last opens its folder. */
function Breadcrumb(props: { crumbs: { name: string; path: string }[]; onGo(path: string): void }) {
  return (
    <nav aria-label="Folder" className="crumbs">
      <ol>
        {props.crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index === props.crumbs.length - 1 ? (
              <span aria-current="location">{crumb.name}</span>
            ) : (
              <button type="button" className="link" onClick={() => props.onGo(crumb.path)}>
                {crumb.name}
              </button>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
