/**
 * Watches as users run them: `smkit simulator` and `smkit playground` (the compiled binary) pointed
 * at it with SMKIT_UPSTREAM_URL. A watch of luna.explorer with followers is run, the simulator's
 * clock moves 48 hours, the watch runs again: the diff's gained and lost lists are exactly the
 * difference of the two follower lists walked directly from /api/friendships/followers. Then the
 * playground restarts on the same --db: watches and snapshots are still there, and a watch that was
 * due while it was down runs once on start.
 */
import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { compiledBinary, freePort, waitForOk } from '../support/binary'

let binary: string
let folder: string
let simulatorUrl: string
let simulator: ReturnType<typeof Bun.spawn>
const children: ReturnType<typeof Bun.spawn>[] = []

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-'))
	const port = freePort()
	simulator = Bun.spawn([binary, 'simulator', '--port', String(port)], { stdout: 'pipe', stderr: 'pipe' })
	simulatorUrl = `http://127.0.0.1:${port}`
	expect(await waitForOk(`${simulatorUrl}/__sim/health`)).toBe(true)
})
afterAll(async () => {
	for (const child of [...children, simulator]) {
		child.kill('SIGTERM')
		await child.exited
	}
	rmSync(folder, { recursive: true, force: true })
})

/** Starts the playground binary on the simulator and the test's database. */
async function startPlayground() {
	const port = freePort()
	const child = Bun.spawn(
		[binary, 'playground', '--demo', '--port', String(port), '--db', 'watch.db', '--env', 'none.env'],
		{ cwd: folder, env: { ...process.env, SMKIT_UPSTREAM_URL: simulatorUrl }, stdout: 'pipe', stderr: 'pipe' }
	)
	children.push(child)
	const url = `http://127.0.0.1:${port}`
	expect(await waitForOk(`${url}/api/status`)).toBe(true)
	return { child, url }
}

async function api(url: string, path: string, init?: RequestInit) {
	const response = await fetch(`${url}${path}`, {
		...init,
		headers: init?.body ? { 'content-type': 'application/json' } : undefined
	})
	const body = await response.json()
	if (!body.success) throw new Error(`${path}: ${response.status} ${body.error}`)
	return body
}

/** Every follower pk of luna.explorer, walked page by page from the playground's followers endpoint. */
async function walkFollowers(url: string): Promise<string[]> {
	const pks: string[] = []
	let cursor: string | null = null
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
		const page = await api(url, `/api/friendships/followers/${DEMO_PRESETS.luna.pk}?count=1000${query}`)
		pks.push(...page.data.map((user: { pk: string }) => user.pk))
		cursor = page.next_cursor ?? null
	} while (cursor)
	expect(new Set(pks).size).toBe(pks.length)
	return pks
}

const minus = (left: string[], right: string[]) => {
	const exclude = new Set(right)
	return left.filter((pk) => !exclude.has(pk)).sort()
}
const pksOf = (users: { pk: string }[]) => users.map((user) => user.pk).sort()

test('a 48-hour diff of luna.explorer equals the difference of two directly walked follower lists; it all survives a restart', async () => {
	let playground = await startPlayground()
	const created = await api(playground.url, '/api/watches', {
		method: 'POST',
		body: JSON.stringify({ username: 'luna.explorer', every: '1d', followers: true })
	})
	const id = created.data.id
	expect(created.data).toMatchObject({
		kind: 'account',
		target: 'luna.explorer',
		every: '1d',
		followers: true
	})

	const before = await walkFollowers(playground.url)
	const first = (await api(playground.url, `/api/watches/${id}/run`, { method: 'POST' })).data
	expect(first.follower_list_size).toBe(before.length)
	expect(first.followers).toBe(before.length)

	const clock = await fetch(`${simulatorUrl}/__sim/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_hours: 48 })
	})
	expect((await clock.json()).hours).toBe(48)

	const after = await walkFollowers(playground.url)
	const second = (await api(playground.url, `/api/watches/${id}/run`, { method: 'POST' })).data
	const diff = (await api(playground.url, `/api/watches/${id}/diff?from=${first.id}&to=${second.id}`)).data

	const gained = minus(after, before)
	const lost = minus(before, after)
	// The clock moved the world: the test compares real changes, not two empty lists.
	expect(gained.length).toBeGreaterThan(0)
	expect(lost.length).toBeGreaterThan(0)
	expect(pksOf(diff.gained)).toEqual(gained)
	expect(pksOf(diff.lost)).toEqual(lost)
	expect(diff.gained[0]).toHaveProperty('username')
	expect(diff.counts.followers).toEqual({
		from: before.length,
		to: after.length,
		change: after.length - before.length
	})
	expect(diff.counts.follower_list_size.to).toBe(after.length)
	// Without from/to: the last two snapshots, which are these (the scheduler may have added an earlier one).
	const latest = (await api(playground.url, `/api/watches/${id}/diff`)).data
	expect([latest.from.id, latest.to.id]).toEqual([first.id, second.id])

	// Restart on the same --db while the watch is overdue by three intervals.
	playground.child.kill('SIGTERM')
	expect(await playground.child.exited).toBe(0)
	const db = new Database(join(folder, 'watch.db'))
	const overdue = new Date(Date.now() - 3 * 86_400_000).toISOString()
	db.query('UPDATE watches SET next_run_at = ? WHERE id = ?').run(overdue, id)
	const stored = (db.query('SELECT count(*) AS n FROM watch_snapshots').get() as { n: number }).n
	db.close()

	playground = await startPlayground()
	let watch = (await api(playground.url, `/api/watches/${id}`)).data
	for (const until = Date.now() + 60_000; watch.snapshots === stored && Date.now() < until; ) {
		await Bun.sleep(50)
		watch = (await api(playground.url, `/api/watches/${id}`)).data
	}
	// Once, not three times: the next run is a whole interval after this one.
	expect(watch.snapshots).toBe(stored + 1)
	expect(watch.last_status).toBe('ok')
	expect(Date.parse(watch.next_run_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000)
	const snapshots = (await api(playground.url, `/api/watches/${id}/snapshots`)).data
	expect(snapshots.map((snapshot: { id: number }) => snapshot.id)).toContain(first.id)
	const kept = (await api(playground.url, `/api/watches/${id}/diff?from=${first.id}&to=${second.id}`)).data
	expect(pksOf(kept.gained)).toEqual(gained)
	expect(pksOf(kept.lost)).toEqual(lost)
}, 180_000)
