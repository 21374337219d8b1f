/**
 * `smkit login` on the compiled binary behind a proxy: like the servers, it says at start which
 * proxy its session check goes through (without the proxy's credentials), and the check does go
 * through it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import type { Simulator } from '../../src/simulator/server'
import { runProcess } from '../support/process'
import { type ProxiedUpstream, startProxiedUpstream } from '../support/proxied-upstream'
import type { TestProxy } from '../support/proxy'

let binary: string
let simulator: Simulator
let proxy: TestProxy
let folder: string
let upstream: ProxiedUpstream

beforeAll(async () => {
	upstream = await startProxiedUpstream('smkit-login-cli-', 'proxy-secret-9')
	;({ binary, simulator, proxy, folder } = upstream)
}, 120_000)
afterAll(() => upstream.stop())

const COOKIES = `sessionid=${DEMO_CREDENTIALS.sessionId}; csrftoken=${DEMO_CREDENTIALS.csrfToken}; ds_user_id=${DEMO_CREDENTIALS.dsUserId}`

function login(...args: string[]) {
	return runProcess([binary, 'login', '--cookies', '-', '--env', 'login.env', ...args], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdin: COOKIES
	})
}

test('login --proxy prints the Proxy: line without its credentials, and checks the session through it', async () => {
	const before = proxy.count
	const result = await login('--proxy', proxy.url)
	expect(result.code).toBe(0)
	const { host } = new URL(proxy.url)
	expect(result.stdout).toContain(`Proxy: http://[redacted]@${host}`)
	expect(result.stdout).toContain('Logged in as @smkit_demo')
	expect(`${result.stdout}${result.stderr}`).not.toContain('proxy-secret-9')
	expect(proxy.count).toBeGreaterThan(before)
})

test('login from HTTP_PROXY in the environment file says where the proxy came from', async () => {
	writeFileSync(join(folder, 'login.env'), `HTTP_PROXY=${proxy.url}\n`, { mode: 0o600 })
	const result = await login()
	expect(result.code).toBe(0)
	expect(result.stdout).toMatch(/Proxy: http:\/\/\S+ \(from the environment\)/)
	expect(`${result.stdout}${result.stderr}`).not.toContain('proxy-secret-9')
})

test('logout removes the session from the file, and says when the process environment still holds one', async () => {
	expect((await login('--skip-check')).code).toBe(0)
	const logout = (env: Record<string, string | undefined>) =>
		runProcess([binary, 'logout', '--env', 'login.env'], { cwd: folder, env: { ...process.env, ...env } })
	const removed = await logout({ SESSION_ID: undefined })
	expect(removed.code).toBe(0)
	expect(removed.stdout).toContain('Removed SESSION_ID, CSRF_TOKEN, DS_USER_ID from login.env')
	expect(removed.stderr).toBe('')
	// The process environment wins over the file: logged out only in name unless it is unset too.
	const shadowed = await logout({ SESSION_ID: 'from-the-shell' })
	expect(shadowed.stdout).toContain('No Instagram session in login.env')
	expect(shadowed.stderr).toContain(
		'Note: SESSION_ID still set in the process environment, which wins over the file: unset it to log out'
	)
	expect(`${shadowed.stdout}${shadowed.stderr}`).not.toContain('from-the-shell')
})

test('a --cookies file that cannot be read says why, and nothing is stored', async () => {
	const missing = await runProcess([binary, 'login', '--cookies', 'nope.txt', '--env', 'unread.env'], {
		cwd: folder,
		env: { ...process.env, NO_COLOR: '1' }
	})
	expect(missing.code).toBe(2)
	expect(missing.stderr).toContain("--cookies: cannot read 'nope.txt': there is no such file")
	const folderGiven = await runProcess([binary, 'login', '--cookies', '.', '--env', 'unread.env'], {
		cwd: folder,
		env: { ...process.env, NO_COLOR: '1' }
	})
	expect(folderGiven.stderr).toContain("--cookies: cannot read '.': it is a folder")
})
