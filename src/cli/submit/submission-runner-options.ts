import type { ApiClient } from '../../core/api';
import type { SubmissionJournal, SubmissionRecord } from '../../core/journal';
import type { LiveDisplay } from '../output';
import type { Choose, Confirm } from '../terminal';

/** What a runner needs from the command that uses it. */
export interface SubmissionRunnerOptions {
  journal: SubmissionJournal;
  display: LiveDisplay;
  signal: AbortSignal;
  /** Render without asking after the summary. */
  yes: boolean;
  /** A person can answer questions on this terminal. */
  canPrompt: boolean;
  /** Asks a yes/no question on the terminal. */
  confirm: Confirm;
  /** Asks which of several answers to take on the terminal (the scene of a zip). */
  choose: Choose;
  /** Folder for records that want a download but name no folder (older journal entries). */
  defaultDownloadRoot: string;
  /** Width the file names are padded to in progress lines. */
  nameWidth: number;
  /** Stop once validated: show what the server found, keep the submission waiting for a later go-ahead. */
  validateOnly?: boolean;
}

/** A submission that reached the server's render queue and is left to it (or to `follow`). */
export interface HandedOff {
  handedOff: SubmissionRecord;
  client: ApiClient;
}
