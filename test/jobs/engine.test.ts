/**
 * The jobs engine against the simulator: a job collects exactly the list a plain walk of the client
 * sees, a stopped job resumes from its checkpoint without losing or repeating a record, upstream
 * faults make it wait rather than fail, and login or challenge errors pause it with a message.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InstagramClient } from '../../src/client/client'
import { IgApiError } from '../../src/client/errors'
import { ProxyPool } from '../../src/client/proxy'
import { KIND_SOURCES } from '../../src/jobs/kinds'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import type { JobEvent } from '../../src/jobs/types'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { openStore, type Store } from '../../src/store/db'
import { MIGRATIONS } from '../../src/store/migrations'
import { useSimulator } from '../client/simulator-setup'
import { deadProxyUrl } from '../support/proxy'

const simulator = useSimulator()
let folder: string
let store: Store
let jobs: JobStore

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-jobs-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
})
afterEach(() => {
	simulator.sim.faults.clear()
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** Every follower pk of luna.explorer by a plain walk of the client. */
async function walkFollowers(): Promise<string[]> {
	const pks: string[] = []
	for await (const user of await simulator.client().friendships.getFollowers(DEMO_PRESETS.luna.pk))
		pks.push(user.pk)
	return pks
}

const storedPks = (id: number) => [...jobs.records(id)].map((record) => (record as { pk: string }).pk)

describe('store', () => {
	test('opening applies each migration once and keeps data across reopenings', () => {
		const job = jobs.create({ kind: 'followers', target: 'luna.explorer' })
		store.close()
		store = openStore(join(folder, 'smkit.db'))
		jobs = new JobStore(store)
		expect(jobs.get(job.id)?.target).toBe('luna.explorer')
		const applied = store.db.query<{ id: string }, []>('SELECT id FROM schema_migrations').all()
		expect(applied.map((row) => row.id).sort()).toEqual(MIGRATIONS.map((migration) => migration.id).sort())
		expect(store.db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode).toBe(
			'wal'
		)
	})

	test('a file written before jobs-2 keeps its jobs, records, order and key rule after the upgrade', () => {
		store.close()
		const path = join(folder, 'old.db')
		const old = openStore(path, MIGRATIONS.slice(0, 1))
		const oldJobs = new JobStore(old)
		// As that version created it (today's create writes columns added since).
		const time = new Date().toISOString()
		const job = old.db
			.query<{ id: number }, [string, string]>(
				`INSERT INTO jobs (kind, target, created_at, updated_at) VALUES ('followers', 'x', ?, ?) RETURNING id`
			)
			.get(time, time) as { id: number }
		oldJobs.storePage(
			job.id,
			['9', '3', '7'].map((pk) => ({ key: pk, data: { pk } })),
			'c1'
		)
		old.close()
		store = openStore(path)
		jobs = new JobStore(store)
		expect(storedPks(job.id)).toEqual(['9', '3', '7'])
		expect(jobs.get(job.id)).toMatchObject({ collected: 3, pages: 1 })
		// Still one row per key, and deleting the job still deletes its records.
		expect(
			jobs.storePage(
				job.id,
				['3', '1'].map((pk) => ({ key: pk, data: { pk } })),
				'c2'
			)
		).toBe(1)
		expect(storedPks(job.id)).toEqual(['9', '3', '7', '1'])
		jobs.delete(job.id)
		expect(store.db.query<{ n: number }, []>('SELECT count(*) AS n FROM job_records').get()?.n).toBe(0)
	})

	test('a record key is stored once, and the page and its cursor are one transaction', () => {
		const job = jobs.create({ kind: 'followers', target: 'x' })
		expect(
			jobs.storePage(
				job.id,
				[
					{ key: '1', data: { pk: '1' } },
					{ key: '2', data: { pk: '2' } }
				],
				'c1'
			)
		).toBe(2)
		expect(
			jobs.storePage(
				job.id,
				[
					{ key: '2', data: { pk: '2' } },
					{ key: '3', data: { pk: '3' } }
				],
				'c2'
			)
		).toBe(1)
		expect(storedPks(job.id)).toEqual(['1', '2', '3'])
		// A failure inside the page's transaction leaves neither records nor cursor behind.
		const bad = { key: '4', data: 1n as unknown }
		expect(() => jobs.storePage(job.id, [{ key: '5', data: { pk: '5' } }, bad], 'c3')).toThrow()
		expect(jobs.get(job.id)).toMatchObject({ collected: 3, pages: 2 })
		expect(jobs.position(job.id).cursor).toBe('c2')
		expect(storedPks(job.id)).toEqual(['1', '2', '3'])
	})
	test('a transaction takes the write lock at its start: another connection cannot commit between its read and its write', () => {
		const job = jobs.create({ kind: 'followers', target: 'x' })
		const other = openStore(store.path)
		try {
			other.db.exec('PRAGMA busy_timeout = 0')
			const otherWrite = () => other.db.query("UPDATE jobs SET updated_at = 'other' WHERE id = ?").run(job.id)
			// A deferred transaction would start reading, let the other connection commit, then fail its
			// first write at once with "database is locked" (its snapshot is stale; waiting cannot help).
			const added = store.transaction(() => {
				store.db.query('SELECT collected FROM jobs WHERE id = ?').get(job.id)
				expect(otherWrite).toThrow('database is locked')
				return store.db.query('UPDATE jobs SET collected = 7 WHERE id = ?').run(job.id).changes
			})
			expect(added).toBe(1)
			expect(jobs.get(job.id)?.collected).toBe(7)
			otherWrite()
			expect(jobs.get(job.id)?.updated_at).toBe('other')
		} finally {
			other.close()
		}
	})

	test('a job whose runner was killed but not yet reaped (a zombie) is interrupted, and can be claimed', async () => {
		// `sh` starts a child that exits at once, then becomes `sleep`, which never reaps it.
		const shell = Bun.spawn(['sh', '-c', 'sleep 0 & echo $!; exec sleep 30'], { stdout: 'pipe' })
		try {
			const reader = shell.stdout.getReader()
			const zombie = Number(new TextDecoder().decode((await reader.read()).value).trim())
			const state = () => {
				const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8')
				return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
			}
			while (state() !== 'Z') await Bun.sleep(10)
			const job = jobs.create({ kind: 'followers', target: 'x' })
			store.db.query("UPDATE jobs SET status = 'running', runner_pid = ? WHERE id = ?").run(zombie, job.id)
			expect(jobs.interrupted('playground').map((entry) => entry.id)).toEqual([job.id])
			expect(jobs.claim(job.id)).toBe(true)
		} finally {
			shell.kill()
			await shell.exited
		}
	})

	test('a path that cannot hold the store is an error naming it: a folder, not a database, under a file', () => {
		const notDatabase = join(folder, 'notes.txt')
		writeFileSync(notDatabase, 'hello\n')
		for (const path of [folder, notDatabase, join(notDatabase, 'smkit.db')])
			expect(() => openStore(path)).toThrow(`cannot open the store ${path}: `)
	})
})

describe('runJob', () => {
	test('collects exactly the followers a walk of the client sees, with an event per page', async () => {
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const events: JobEvent[] = []
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client(),
			onEvent: (event) => events.push(event)
		})
		const expected = await walkFollowers()
		expect(finished.status).toBe('done')
		expect(storedPks(job.id)).toEqual(expected)
		expect(finished).toMatchObject({ collected: expected.length, total: expected.length })
		expect(events.filter((event) => event.type === 'page').length).toBe(finished.pages)
	})

	test('a stopped job resumes from its checkpoint: nothing lost, nothing twice', async () => {
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const controller = new AbortController()
		// Small pages so the stop lands mid-list.
		const ig = simulator.client()
		const stopped = await runJob(jobs, job.id, {
			ig,
			signal: controller.signal,
			onEvent: (event) => {
				if (event.type === 'page') controller.abort(new Error('stop'))
			}
		})
		expect(stopped.status).toBe('running')
		expect(stopped.pages).toBe(1)
		const finished = await runJob(jobs, job.id, { ig })
		expect(finished.status).toBe('done')
		expect(storedPks(job.id)).toEqual(await walkFollowers())
	})

	test('a job paused or deleted by another process on the store stops at its next checkpoint', async () => {
		// Another process (a second playground) writes through its own connection to the same file.
		const other = new JobStore(openStore(join(folder, 'smkit.db')))
		try {
			const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
			const ig = simulator.client()
			const paused = await runJob(jobs, job.id, {
				ig,
				onEvent: (event) => {
					if (event.type === 'page' && event.job.pages === 1)
						other.setStatus(job.id, 'paused', 'Paused elsewhere')
				}
			})
			expect(paused).toMatchObject({ status: 'paused', error: 'Paused elsewhere', pages: 1 })
			// Released: the job is nobody's until it is resumed.
			expect(store.db.query('SELECT runner_pid FROM jobs WHERE id = ?').get(job.id)).toEqual({
				runner_pid: null
			})
			other.setStatus(job.id, 'queued')
			const finished = await runJob(jobs, job.id, { ig })
			expect(finished.status).toBe('done')
			expect(storedPks(job.id)).toEqual(await walkFollowers())

			const deleted = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
			const last = await runJob(jobs, deleted.id, {
				ig,
				onEvent: (event) => {
					if (event.type === 'page' && event.job.pages === 1) other.delete(deleted.id)
				}
			})
			expect(last.pages).toBe(1)
			expect(jobs.get(deleted.id)).toBeUndefined()
			// Deleted while a page is on its way: the page is dropped, not stored under no job.
			const gone = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
			let asked = 0
			const events: JobEvent[] = []
			const end = await runJob(jobs, gone.id, {
				ig,
				onEvent: (event) => events.push(event),
				beforePage: async () => {
					if (++asked === 2) other.delete(gone.id)
				}
			})
			expect(end.id).toBe(gone.id)
			expect(events.map((event) => event.type)).toEqual(['status'])
			expect(store.db.query('SELECT COUNT(*) AS n FROM job_records WHERE job_id = ?').get(gone.id)).toEqual({
				n: 0
			})
			expect(jobs.storePage(deleted.id, [{ key: '1', data: {} }], null)).toBe(0)
			expect(
				store.db.query('SELECT COUNT(*) AS n FROM job_records WHERE job_id = ?').get(deleted.id)
			).toEqual({ n: 0 })
		} finally {
			other.store.close()
		}
	})

	test('a limit stops the job after that many records', async () => {
		const job = jobs.create({ kind: 'posts', target: DEMO_PRESETS.luna.username, limit: 40 })
		const finished = await runJob(jobs, job.id, { ig: simulator.client() })
		expect(finished).toMatchObject({ status: 'done', collected: 40 })
		const walk = await simulator.client().feed.getUserFeed(DEMO_PRESETS.luna.pk, { count: 40 })
		expect([...jobs.records(job.id)].map((record) => (record as { pk: string }).pk)).toEqual(
			walk.items.map((media) => media.pk)
		)
	})

	test('30% of upstream calls failing (429, 5xx, malformed) still ends done with the exact list', async () => {
		simulator.sim.faults.set([
			// One of each for certain, then 30% at random.
			{ kind: 'rate_limit', times: 1, retryAfter: 0, pathPattern: 'followers' },
			{ kind: 'server_error', times: 1, status: 502, pathPattern: 'followers' },
			{ kind: 'malformed', times: 1, pathPattern: 'followers' },
			{ kind: 'rate_limit', probability: 0.1, retryAfter: 0, pathPattern: 'friendships|web_profile_info' },
			{ kind: 'server_error', probability: 0.12, status: 503, pathPattern: 'friendships|web_profile_info' },
			{ kind: 'malformed', probability: 0.12, pathPattern: 'friendships|web_profile_info' }
		])
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const events: JobEvent[] = []
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client({ maxRetries: 0 }),
			backoffMs: 1,
			maxBackoffMs: 5,
			onEvent: (event) => events.push(event)
		})
		expect(finished.status).toBe('done')
		expect(events.filter((event) => event.type === 'wait').length).toBeGreaterThanOrEqual(3)
		simulator.sim.faults.clear()
		expect(storedPks(job.id)).toEqual(await walkFollowers())
	})

	test('a comments job stores every reply of each comment, beyond the two Instagram shows, through faults', async () => {
		const state = simulator.sim.state
		// luna.explorer's post whose comments have the most replies: some have more than two.
		const post = state
			.postsOf(DEMO_PRESETS.luna.pk)
			.reduce((best, entry) =>
				Math.max(...state.commentsOf(entry).map((comment) => comment.replies.length)) >
				Math.max(...state.commentsOf(best).map((comment) => comment.replies.length))
					? entry
					: best
			)
		const expected = state
			.commentsOf(post)
			.map((comment) => [comment.pk, comment.replies.map((reply) => reply.pk)])
		expect(expected.some(([, replies]) => replies.length > 2)).toBe(true)
		simulator.sim.faults.set([
			{ kind: 'rate_limit', times: 1, retryAfter: 0, pathPattern: 'child_comments' },
			{ kind: 'server_error', probability: 0.2, status: 503, pathPattern: 'comments' },
			{ kind: 'malformed', probability: 0.1, pathPattern: 'child_comments' }
		])
		const job = jobs.create({ kind: 'comments', target: String(post.pk) })
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client({ maxRetries: 0 }),
			backoffMs: 1,
			maxBackoffMs: 5
		})
		simulator.sim.faults.clear()
		expect(finished.status).toBe('done')
		const stored = [...jobs.records(job.id)] as {
			pk: string
			reply_count: number
			replies: { pk: string }[]
		}[]
		expect(stored.map((comment) => [comment.pk, comment.replies.map((reply) => reply.pk)])).toEqual(expected)
		expect(stored.every((comment) => comment.replies.length === comment.reply_count)).toBe(true)
	})

	test('a comment deleted before its replies are read keeps the replies it was listed with; another failure fails the page', async () => {
		const reply = (pk: string) => ({ pk, text: 'thanks', replies: [] })
		const listed = [
			{ pk: '1', reply_count: 3, replies: [reply('11'), reply('12')] },
			{ pk: '2', reply_count: 3, replies: [reply('21'), reply('22')] }
		]
		const failure = (kind: 'not_found' | 'upstream_error') =>
			new IgApiError(kind, `${kind} from the test`, { upstreamStatus: kind === 'not_found' ? 404 : 502 })
		const client = (deleted: 'not_found' | 'upstream_error') =>
			({
				media: {
					getComments: async () => ({ items: listed, next_cursor: null }),
					getCommentReplies: async (_media: string, comment: string) => {
						if (comment === '1') throw failure(deleted)
						return { items: [reply('21'), reply('22'), reply('23')], next_cursor: null }
					}
				}
			}) as unknown as InstagramClient
		const signal = new AbortController().signal
		const page = await KIND_SOURCES.comments.page(client('not_found'), '5', null, signal)
		expect(
			page.items.map((comment) => (comment as { replies: { pk: string }[] }).replies.map((r) => r.pk))
		).toEqual([
			['11', '12'],
			['21', '22', '23']
		])
		await expect(KIND_SOURCES.comments.page(client('upstream_error'), '5', null, signal)).rejects.toThrow(
			'upstream_error from the test'
		)
	})

	test('an expired session pauses the job with what to do; resuming continues', async () => {
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const ig = simulator.client()
		simulator.sim.faults.set({ kind: 'login', pathPattern: 'friendships' })
		const paused = await runJob(jobs, job.id, { ig })
		expect(paused.status).toBe('paused')
		expect(paused.error_code).toBe('login_required')
		expect(paused.error).toContain('log in again')
		expect(paused.error).toContain('smkit login --cookies')
		simulator.sim.faults.set({ kind: 'challenge', pathPattern: 'friendships' })
		expect((await runJob(jobs, job.id, { ig })).error_code).toBe('challenge_required')
		simulator.sim.faults.clear()
		const finished = await runJob(jobs, job.id, { ig })
		expect(finished.status).toBe('done')
		expect(storedPks(job.id)).toEqual(await walkFollowers())
	})

	test('without credentials the job pauses saying how to connect, not that Instagram asked to log in again', async () => {
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const sentBefore = simulator.sent.length
		const paused = await runJob(jobs, job.id, { ig: simulator.client({ credentials: undefined }) })
		expect(paused).toMatchObject({ status: 'paused', error_code: 'login_required' })
		expect(paused.error).toStartWith('Not logged in: connect an account with smkit login')
		expect(paused.error).toEndWith('then resume the job')
		expect(paused.error).not.toContain('again')
		expect(simulator.sent.length).toBe(sentBefore)
	})

	test('a proxy that refuses every connection pauses the job after a few attempts, naming its host only', async () => {
		const dead = new URL(deadProxyUrl())
		dead.username = 'proxyuser'
		dead.password = 'proxy-secret-7'
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.luna.username })
		const events: JobEvent[] = []
		const proxies = new ProxyPool({ urls: [dead.href] })
		const paused = await runJob(jobs, job.id, {
			ig: simulator.client({ proxies, fetch: undefined }),
			backoffMs: 1,
			maxBackoffMs: 5,
			onEvent: (event) => events.push(event)
		})
		expect(paused).toMatchObject({ status: 'paused', error_code: 'upstream_error' })
		expect(paused.error).toStartWith(`Could not connect to the proxy ${dead.host}, attempt after attempt`)
		expect(paused.error).not.toContain('proxy-secret-7')
		expect(paused.error).not.toContain('proxyuser')
		expect(events.filter((event) => event.type === 'wait').length).toBe(4)
		// Resumable: the same job, run without the proxy, collects the whole list.
		const finished = await runJob(jobs, job.id, { ig: simulator.client() })
		expect(finished.status).toBe('done')
		expect(storedPks(job.id)).toEqual(await walkFollowers())
	})

	test('a missing account fails the job with the upstream message', async () => {
		const job = jobs.create({ kind: 'followers', target: DEMO_PRESETS.missing.username })
		const failed = await runJob(jobs, job.id, { ig: simulator.client() })
		expect(failed).toMatchObject({ status: 'failed', error_code: 'not_found' })
	})
})
