/** What a file in the file browser is, for the artist: a folder, a scene Renderdrop opens, or something else. */
export const FILE_KINDS = ['folder', 'blend', 'zip', 'other'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** One entry of a folder in the file browser. */
export interface FileEntryView {
  name: string;
  kind: FileKind;
  /** Bytes of a file; null for a folder. */
  size: number | null;
  /** When it last changed (ISO 8601), when known. */
  modified: string | null;
  /** Where it is, to open a folder or submit a scene (passed back as it is; never shown). */
  path: string;
}

/** A step of the path from the home folder to a folder: its name and where it is. */
export interface FolderCrumb {
  name: string;
  path: string;
}

/**
 * A folder under the artist's home folder, as the file browser shows it: folders first, then files, each
 * by name; hidden files only when asked for.
 */
export interface FolderView {
  /** Where the folder is (passed back as it is; never shown). */
  path: string;
  /** From the home folder (first, named "Home") down to this folder. */
  crumbs: FolderCrumb[];
  /** The folder above, or null at the home folder. */
  parent: string | null;
  entries: FileEntryView[];
  /** More entries than the browser lists were left out. */
  truncated: boolean;
}
