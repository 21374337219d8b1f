/**
 * Demo time shared through the store: a `--demo` playground (its own in-process simulator) moves
 * demo time, and `smkit watch run --demo` on the same --db (another in-process simulator) reads the
 * same demo world, as does the playground started again; the compiled binary, as users run it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary, freePort, waitForOk } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let folder: string
const children: ReturnType<typeof Bun.spawn>[] = []
// Demo mode's own simulator: no shared one from the environment.
const { SMKIT_UPSTREAM_URL: _shared, ...env } = process.env

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-demo-time-'))
})
afterAll(async () => {
	for (const child of children) {
		child.kill('SIGTERM')
		await child.exited
	}
	rmSync(folder, { recursive: true, force: true })
})

async function startPlayground(db = 'd.db') {
	const port = freePort()
	const child = Bun.spawn(
		[binary, 'playground', '--demo', '--port', String(port), '--db', db, '--env', 'none.env'],
		{ cwd: folder, env, stdout: 'pipe', stderr: 'pipe' }
	)
	children.push(child)
	const url = `http://127.0.0.1:${port}`
	expect(await waitForOk(`${url}/api/status`)).toBe(true)
	return { child, url }
}

async function api(url: string, path: string, body?: unknown) {
	const response = await fetch(`${url}${path}`, {
		method: body === undefined ? 'GET' : 'POST',
		headers: body === undefined ? undefined : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	})
	const answer = await response.json()
	if (!answer.success) throw new Error(`${path}: ${response.status} ${answer.error}`)
	return answer.data
}

const watch = (...args: string[]) =>
	runProcess([binary, 'watch', ...args, '--demo', '--db', 'd.db', '--env', 'none.env'], { cwd: folder, env })

test('a watch run from the command line reads the demo world a playground on the store moved on', async () => {
	const first = await startPlayground()
	await api(first.url, '/api/watches', { username: 'luna.explorer' })
	const before = await api(first.url, '/api/watches/1/run', {})
	await api(first.url, '/api/demo/clock', { advance_hours: 72 })
	const profile = await api(first.url, '/api/users/username/luna.explorer')
	expect(profile.media_count).toBeGreaterThan(before.posts)

	const run = await watch('run', '1', '--json')
	expect(run.code).toBe(0)
	expect(run.stderr).toContain("Demo time: 72 h on, as this store's demo world was left")
	const [outcome] = JSON.parse(run.stdout)
	expect(outcome.snapshot).toMatchObject({
		followers: profile.follower_count,
		following: profile.following_count,
		posts: profile.media_count
	})

	first.child.kill('SIGTERM')
	await first.child.exited
	// Started again, the playground's demo world is where it was left, not back at the start.
	const second = await startPlayground()
	expect((await api(second.url, '/api/demo/clock')).hours).toBe(72)
	const again = await api(second.url, '/api/users/username/luna.explorer')
	expect(again.media_count).toBe(profile.media_count)
	// Pictures stored by the first playground name its simulator's port; the page asks the new one.
	const pictures = (await api(second.url, '/api/status')).demo_pictures
	expect(again.profile_pic_url).toStartWith(`${pictures}/__sim/img/`)
	expect(profile.profile_pic_url).not.toStartWith(`${pictures}/`)
})

test('two playgrounds on one store read one demo world: the second follows the first one’s moves', async () => {
	const [one, two] = [await startPlayground('two.db'), await startPlayground('two.db')]
	await api(one.url, '/api/watches', { username: 'luna.explorer' })
	await api(one.url, '/api/demo/clock', { advance_hours: 48 })
	const moved = await api(one.url, '/api/users/username/luna.explorer')
	// A run in the second playground catches up first: its snapshot is of the same world.
	const snapshot = await api(two.url, '/api/watches/1/run', {})
	expect(snapshot).toMatchObject({ followers: moved.follower_count, posts: moved.media_count })
	expect((await api(two.url, '/api/demo/clock')).hours).toBe(48)
	// A move in the second adds to the latest reading, and the first follows it in turn.
	expect((await api(two.url, '/api/demo/clock', { advance_hours: 24 })).hours).toBe(72)
	expect((await api(one.url, '/api/demo/clock')).hours).toBe(72)
})
