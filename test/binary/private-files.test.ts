/**
 * What smkit writes holds an account's data, so it is its user's alone on a shared machine: the
 * store and its folder, an export, and a saved result are made with mode 0600 (folders 0700),
 * whatever the shell's umask.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary, freePort, waitForOk } from '../support/binary'
import { runProcess } from '../support/process'

let binary: string
let folder: string
// Demo mode's own simulator: no shared one from the environment.
const { SMKIT_UPSTREAM_URL: _shared, ...env } = process.env
const modeOf = (path: string) => statSync(join(folder, path)).mode & 0o777

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-private-'))
})
afterAll(() => {
	rmSync(folder, { recursive: true, force: true })
})

/** Runs `command` under a permissive umask (022), as most shells have it. */
const underUmask022 = (command: string[]) =>
	runProcess(['sh', '-c', 'umask 022 && exec "$@"', 'sh', ...command], { cwd: folder, env })

test('a collect makes its store, its folder and its export for its user alone', async () => {
	const run = await underUmask022([
		binary,
		'collect',
		'posts',
		'luna.explorer',
		'--limit',
		'5',
		'--demo',
		'--out',
		'posts.jsonl',
		'--env',
		'none.env'
	])
	expect(run.code).toBe(0)
	expect(modeOf('demo')).toBe(0o700)
	expect(modeOf('demo/smkit.db')).toBe(0o600)
	expect(modeOf('posts.jsonl')).toBe(0o600)
})

test('a saved result is its user’s alone', async () => {
	const port = freePort()
	const child = Bun.spawn(
		[
			'sh',
			'-c',
			'umask 022 && exec "$@"',
			'sh',
			binary,
			'playground',
			'--demo',
			'--port',
			String(port),
			'--env',
			'none.env',
			'--db',
			'demo/smkit.db'
		],
		{ cwd: folder, env, stdout: 'pipe', stderr: 'pipe' }
	)
	try {
		const url = `http://127.0.0.1:${port}`
		expect(await waitForOk(`${url}/api/status`)).toBe(true)
		expect((await fetch(`${url}/api/users/username/luna.explorer`)).status).toBe(200)
		const saved = await fetch(`${url}/api/save`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'luna' })
		})
		expect(saved.status).toBe(200)
		expect(modeOf('demo/saved')).toBe(0o700)
		expect(modeOf('demo/saved/luna.json')).toBe(0o600)
	} finally {
		child.kill('SIGTERM')
		await child.exited
	}
})
