/**
 * Versioned schema migrations of the node's SQLite database. Each entry runs once, in order, inside
 * a transaction; `PRAGMA user_version` records how many have run. Append new steps, never edit old ones.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  );
  CREATE TABLE uploads (
    slug TEXT PRIMARY KEY,
    file_name TEXT NOT NULL,
    file_type TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    size INTEGER,
    received_at TEXT,
    job_id TEXT
  );
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    status TEXT NOT NULL,
    user_id TEXT NOT NULL,
    upload_slug TEXT NOT NULL,
    root_folder_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    queued_at TEXT,
    validate_config TEXT,
    analysis_id TEXT,
    analysis TEXT,
    scene_file TEXT,
    requested_config TEXT,
    final_config TEXT,
    render_plan TEXT,
    failed_reason TEXT,
    total_frames INTEGER NOT NULL DEFAULT 0,
    completed_frames INTEGER NOT NULL DEFAULT 0,
    normalized_seconds REAL,
    preview_path TEXT,
    pid INTEGER,
    completed_at TEXT
  );
  CREATE INDEX jobs_status ON jobs(status);
  CREATE INDEX jobs_seq ON jobs(seq);
  CREATE TABLE job_events (
    job_id TEXT NOT NULL,
    at TEXT NOT NULL,
    status TEXT NOT NULL,
    detail TEXT
  );
  CREATE INDEX job_events_job ON job_events(job_id);
  CREATE TABLE frames (
    job_id TEXT NOT NULL,
    frame INTEGER NOT NULL,
    file_path TEXT NOT NULL,
    seconds REAL NOT NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (job_id, frame)
  );
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    delivered_at TEXT,
    gave_up_at TEXT,
    last_error TEXT
  );
  `,
  // Listing one status, newest first (GET /jobs?status=...), reads this index in order instead of
  // sorting every job of that status.
  `
  DROP INDEX jobs_status;
  CREATE INDEX jobs_status_seq ON jobs(status, seq);
  `,
  `
  CREATE TABLE render_chunks (
    job_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    frames TEXT NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, idx)
  );
  CREATE TABLE render_scenes (
    job_id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL
  );
  `,
  // The one Blender version every chunk of a distributed render is rendered with.
  `
  CREATE TABLE render_blenders (
    job_id TEXT PRIMARY KEY,
    version TEXT NOT NULL
  );
  `,
  // A studio's farm: a job's priority and the worker tags it requires; the render worker that made each frame.
  `
  ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 50;
  ALTER TABLE jobs ADD COLUMN requires TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE frames ADD COLUMN worker TEXT;
  `,
  // The node's render estimates: the sample render's measures of a job, the estimate it gave before
  // Start and the render time the job took, so the node can say how right its estimates have been.
  `
  CREATE TABLE job_estimates (
    job_id TEXT PRIMARY KEY,
    sample TEXT,
    given_seconds REAL,
    given_low REAL,
    given_high REAL,
    took_seconds REAL,
    finished_at TEXT
  );
  `,
];
