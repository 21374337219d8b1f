/**
 * Every schema migration of the store, in the order they are applied (see `db.ts`). Append only:
 * a landed migration is never edited, removed or moved. The store sits below the features that
 * use it, so their tables are declared here rather than imported from them.
 */

/** One schema change: a unique name and the SQL that makes it (several statements allowed). */
export interface Migration {
	id: string
	sql: string
}

/**
 * `jobs-1`: the tables of the jobs engine (src/jobs/).
 *
 * - `jobs`: one row per collection. `cursor` is where the next page starts (null before the first);
 *   `collected`, `pages` and `cursor` only change in the transaction that stores a page's records,
 *   so after any crash they describe exactly the records present. `runner_pid` is the process
 *   running the job (null when none), so two processes never run one job.
 * - `job_records`: the collected records, keyed by (`job_id`, `record_key`): a record seen twice is
 *   stored once. `seq` is arrival order (1, 2, ...), the order exports use.
 */
const JOBS_1: Migration = {
	id: 'jobs-1',
	sql: `
CREATE TABLE jobs (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	kind TEXT NOT NULL,
	target TEXT NOT NULL,
	item_limit INTEGER,
	owner TEXT NOT NULL DEFAULT 'playground',
	status TEXT NOT NULL DEFAULT 'queued',
	target_id TEXT,
	cursor TEXT,
	collected INTEGER NOT NULL DEFAULT 0,
	total INTEGER,
	pages INTEGER NOT NULL DEFAULT 0,
	error TEXT,
	error_code TEXT,
	runner_pid INTEGER,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE INDEX jobs_by_target ON jobs (owner, kind, target);
CREATE TABLE job_records (
	job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
	record_key TEXT NOT NULL,
	seq INTEGER NOT NULL,
	data TEXT NOT NULL,
	PRIMARY KEY (job_id, record_key)
) WITHOUT ROWID;
CREATE UNIQUE INDEX job_records_by_seq ON job_records (job_id, seq);
`
}

/**
 * `jobs-2`: `job_records` becomes an ordinary rowid table with the same columns, key and indexes.
 * As a WITHOUT ROWID table its rows (whole records, often over 500 bytes) sat inside the key's
 * B-tree in key order, so every page of arrivals rewrote pages all over it: storing a page of 200
 * followers took about 5 times longer than with the rows appended in arrival order as here.
 */
const JOBS_2: Migration = {
	id: 'jobs-2',
	sql: `
CREATE TABLE job_records_new (
	job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
	record_key TEXT NOT NULL,
	seq INTEGER NOT NULL,
	data TEXT NOT NULL,
	PRIMARY KEY (job_id, record_key)
);
INSERT INTO job_records_new (job_id, record_key, seq, data)
	SELECT job_id, record_key, seq, data FROM job_records ORDER BY job_id, seq;
DROP TABLE job_records;
ALTER TABLE job_records_new RENAME TO job_records;
CREATE UNIQUE INDEX job_records_by_seq ON job_records (job_id, seq);
`
}

/**
 * `watches-1`: watched accounts and hashtags (src/watch/) and the snapshots their runs store.
 *
 * - `watches`: one row per watched account or hashtag (`kind`, `target` unique together). A run is
 *   due when `next_run_at` has passed; after a run it becomes the run's start plus `every_seconds`,
 *   so runs missed while no process ran are made up once, not one by one. `pending_job_id` is the
 *   follower collection of a run that has not finished (a restarted run continues it).
 * - `watch_snapshots`: what one run saw. Accounts: `followers`, `following`, `posts` (profile
 *   counts) and, for watches with followers, `follower_job_id`: the finished jobs-engine collection
 *   holding the complete follower list (its `job_records`, keyed by user pk). Hashtags:
 *   `media_count` and `top_posts` (JSON).
 */
const WATCHES_1: Migration = {
	id: 'watches-1',
	sql: `
CREATE TABLE watches (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	kind TEXT NOT NULL,
	target TEXT NOT NULL,
	every_seconds INTEGER NOT NULL,
	followers INTEGER NOT NULL DEFAULT 0,
	next_run_at TEXT NOT NULL,
	last_run_at TEXT,
	last_status TEXT,
	last_error TEXT,
	pending_job_id INTEGER REFERENCES jobs (id) ON DELETE SET NULL,
	created_at TEXT NOT NULL,
	UNIQUE (kind, target)
);
CREATE TABLE watch_snapshots (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	watch_id INTEGER NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
	taken_at TEXT NOT NULL,
	followers INTEGER,
	following INTEGER,
	posts INTEGER,
	media_count INTEGER,
	follower_job_id INTEGER REFERENCES jobs (id) ON DELETE SET NULL,
	follower_list_size INTEGER,
	top_posts TEXT
);
CREATE INDEX watch_snapshots_by_watch ON watch_snapshots (watch_id, id);
`
}

/**
 * `lists-1`: named lists of accounts (src/watch/lists.ts), the targets of compare, watches and jobs.
 * `position` keeps the order members were added in; a username is in a list once.
 */
const LISTS_1: Migration = {
	id: 'lists-1',
	sql: `
CREATE TABLE account_lists (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	name TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL
);
CREATE TABLE account_list_members (
	list_id INTEGER NOT NULL REFERENCES account_lists (id) ON DELETE CASCADE,
	username TEXT NOT NULL,
	position INTEGER NOT NULL,
	PRIMARY KEY (list_id, username)
);
`
}

/**
 * `watches-2`: `runner` names the process running a watch now (`PID:TOKEN`, src/watch/run-lease.ts),
 * so two processes on one file never run a watch at once; null while none does.
 */
const WATCHES_2: Migration = {
	id: 'watches-2',
	sql: 'ALTER TABLE watches ADD COLUMN runner TEXT;'
}

/** What a record collected from the demo holds and one from Instagram never does: its pictures' path. */
const DEMO_MARK = "LIKE '%/\\_\\_sim/img/%' ESCAPE '\\'"

/**
 * `worlds-1`: `demo` says whether a job or a watch collects from demo mode's simulated Instagram
 * (1) or from Instagram (0), so neither continues from the other and mixes their data; null when
 * not known (a row from before this column, with nothing yet that tells): the first run stamps it.
 * Rows that tell are stamped here: demo records carry the simulator's picture paths (`/__sim/img/`;
 * the first three records of a job are read), a watch goes by its follower collections (finished or
 * pending) and top posts. A watch of counts alone cannot tell: its next run decides.
 */
const WORLDS_1: Migration = {
	id: 'worlds-1',
	sql: `
ALTER TABLE jobs ADD COLUMN demo INTEGER;
UPDATE jobs SET demo = CASE WHEN EXISTS (
		SELECT 1 FROM (SELECT data FROM job_records WHERE job_id = jobs.id ORDER BY seq LIMIT 3)
		WHERE data ${DEMO_MARK}
	) THEN 1 ELSE 0 END
	WHERE EXISTS (SELECT 1 FROM job_records WHERE job_id = jobs.id);
ALTER TABLE watches ADD COLUMN demo INTEGER;
UPDATE watches SET demo = COALESCE(
	(SELECT jobs.demo FROM watch_snapshots JOIN jobs ON jobs.id = watch_snapshots.follower_job_id
		WHERE watch_snapshots.watch_id = watches.id AND jobs.demo IS NOT NULL
		ORDER BY watch_snapshots.id DESC LIMIT 1),
	(SELECT jobs.demo FROM jobs WHERE jobs.id = watches.pending_job_id)
);
UPDATE watches SET demo = CASE WHEN top_posts ${DEMO_MARK} THEN 1 ELSE 0 END
	FROM (SELECT watch_id, top_posts FROM watch_snapshots WHERE top_posts IS NOT NULL AND top_posts <> '[]'
		ORDER BY id DESC) AS latest
	WHERE watches.demo IS NULL AND latest.watch_id = watches.id;
`
}

/**
 * `demo-clock-1`: how far demo mode's simulated Instagram has moved (src/store/demo-clock.ts), one
 * row. Every process in demo mode on this store starts its simulator at this reading, so a
 * playground that moved demo time and `smkit watch run --demo` read one world.
 */
const DEMO_CLOCK_1: Migration = {
	id: 'demo-clock-1',
	sql: `
CREATE TABLE demo_clock (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	hours REAL NOT NULL,
	updated_at TEXT NOT NULL
);
`
}

/**
 * `jobs-3`: `runner_started` is when the job's runner (`runner_pid`) started, as
 * src/jobs/process-alive.ts's `processStart` reads it (start time and boot id on Linux): a live
 * process that was given a dead runner's pid since is not its runner. Null where it cannot be read,
 * and for rows from before this column: then the pid alone decides, as before. A runner set without
 * its start (an older smkit on the same file) clears the start left from the previous runner, so
 * that stays judged by its pid rather than by another process's start.
 */
const JOBS_3: Migration = {
	id: 'jobs-3',
	sql: `
ALTER TABLE jobs ADD COLUMN runner_started TEXT;
CREATE TRIGGER jobs_runner_started_follows_pid AFTER UPDATE OF runner_pid ON jobs
	WHEN NEW.runner_pid IS NOT OLD.runner_pid AND NEW.runner_started IS OLD.runner_started
	BEGIN UPDATE jobs SET runner_started = NULL WHERE id = NEW.id; END;
`
}

/** All migrations, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
	JOBS_1,
	JOBS_2,
	WATCHES_1,
	LISTS_1,
	WATCHES_2,
	WORLDS_1,
	DEMO_CLOCK_1,
	JOBS_3
]
