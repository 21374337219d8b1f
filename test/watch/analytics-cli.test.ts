/**
 * `smkit analytics` and `smkit compare` stopped by Ctrl-C print the failure's JSON with --json, as
 * README promises ("standard output is JSON whatever happens"); and `smkit watch run` without any
 * session says the user is not logged in, not that a session expired.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runProcess } from '../support/process'

const root = resolve(import.meta.dir, '../..')
const bun = join(root, 'node_modules/.bin/bun')
const main = join(root, 'src/main.ts')
const folder = mkdtempSync(join(tmpdir(), 'smkit-analytics-cli-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Nothing from this environment: no session, no upstream, no proxy. */
const env = { PATH: process.env.PATH ?? '', HOME: folder, NO_COLOR: '1' }

/** Starts `smkit ...args`, sends `signal` once it has said its speed (it is working), and waits for its end. */
async function interrupted(args: string[], signal: NodeJS.Signals = 'SIGINT') {
	const child = Bun.spawn([bun, main, ...args], { cwd: folder, env, stdout: 'pipe', stderr: 'pipe' })
	const stdout = new Response(child.stdout).text()
	const reader = child.stderr.getReader()
	let stderr = ''
	while (!stderr.includes('Speed: safe')) {
		const { value, done } = await reader.read()
		if (done) break
		stderr += new TextDecoder().decode(value)
	}
	child.kill(signal)
	for (let part = await reader.read(); !part.done; part = await reader.read())
		stderr += new TextDecoder().decode(part.value)
	return { code: await child.exited, stdout: await stdout, stderr }
}

/** An analytics run slow enough to be interrupted: 200 posts at the safe speed, no session. */
const SLOW_ANALYTICS = [
	'analytics',
	'luna.explorer',
	'--demo',
	'--speed',
	'safe',
	'--posts',
	'200',
	'--env',
	'none.env'
]

describe('analytics and compare interrupted', () => {
	it.each([[['compare', 'luna.explorer', 'mega.travel']], [['analytics', 'luna.explorer']]])(
		'%p --json prints the failure JSON with exit_code 130, and exits 130',
		async (command) => {
			const args = [...command, '--demo', '--speed', 'safe', '--posts', '200', '--json', '--env', 'none.env']
			const { code, stdout, stderr } = await interrupted(args)
			expect(code).toBe(130)
			expect(JSON.parse(stdout)).toEqual({
				success: false,
				error: 'Interrupted',
				code: 'failed',
				exit_code: 130
			})
			expect(stderr).toContain('smkit: Interrupted\n')
		},
		30_000
	)

	it.each([
		['SIGTERM', 143],
		['SIGHUP', 129]
	] as const)(
		'%s stops it as Ctrl-C does, and it exits %d (128 + the signal number)',
		async (signal, exitCode) => {
			const { code, stdout } = await interrupted([...SLOW_ANALYTICS, '--json'], signal)
			expect(code).toBe(exitCode)
			expect(JSON.parse(stdout)).toEqual({
				success: false,
				error: 'Interrupted',
				code: 'failed',
				exit_code: exitCode
			})
		},
		30_000
	)

	it('without --json says it was interrupted, and exits 130', async () => {
		const { code, stdout, stderr } = await interrupted(SLOW_ANALYTICS)
		expect(code).toBe(130)
		expect(stdout).toBe('')
		expect(stderr).toContain('smkit: Interrupted\n')
	}, 30_000)
})

describe('watch run without a session', () => {
	it('says the user is not logged in and how to log in or use --demo, not that a session expired', async () => {
		const watchArgs = ['--db', 'never.db', '--env', 'none.env']
		const run = (...args: string[]) => runProcess([bun, main, ...args], { cwd: folder, env })
		expect((await run('watch', 'add', 'luna.explorer', '--skip-check', ...watchArgs)).code).toBe(0)
		const { code, stderr } = await run('watch', 'run', '1', ...watchArgs)
		expect(code).toBe(1)
		expect(stderr).toContain(
			'FAILED  watch 1 @luna.explorer: Not logged in: connect an account with smkit login'
		)
		expect(stderr).toContain('--demo')
		expect(stderr).not.toContain('expired')
	}, 30_000)
})
