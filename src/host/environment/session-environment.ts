import type { SubmissionJournal } from '../../core/journal';
import type { Clock } from '../../core/util';
import type { AppPreferences } from './app-preferences';
import type { HostEvents } from './host-events';
import type { HiddenJobs } from './hidden-jobs';

/** What every profile session and its services get from the host, whatever the profile. */
export interface SessionEnvironment {
  journal: SubmissionJournal;
  prefs: AppPreferences;
  events: HostEvents;
  clock: Clock;
  downloadRoot: () => string;
  autoDownload: () => boolean;
  /** Whether a path is a staged upload (browser mode) rather than the artist's own file. */
  isStaged: (path: string) => boolean;
  /** Removes a staged upload once no journal record refers to it. */
  releaseFile: (path: string) => Promise<void>;
  /** The jobs the artist removed from the list, per profile (default: kept in memory only). */
  hiddenJobs?: HiddenJobs;
}
