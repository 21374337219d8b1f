/**
 * Proxies on a whole playground run, as `smkit playground` starts it: an environment file naming the
 * simulator and a proxy (or `--proxy-file`), then a handful of calls through the HTTP API. Every
 * request the simulator saw must have come through a loopback test proxy.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parsePlaygroundOptions, startPlaygroundServer } from '../../src/playground/serve'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startSimulator } from '../../src/simulator/server'
import { deadProxyUrl, startTestProxy, type TestProxy } from '../support/proxy'

const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
const folder = await mkdtemp(path.join(tmpdir(), 'smkit-proxy-run-'))
const proxies: TestProxy[] = []
afterAll(async () => {
	await Promise.all(proxies.map((proxy) => proxy.stop()))
	await simulator.stop()
	await rm(folder, { recursive: true, force: true })
})

function proxy(options?: Parameters<typeof startTestProxy>[0]): TestProxy {
	const started = startTestProxy(options)
	proxies.push(started)
	return started
}

/** An environment file with the demo session, the simulator as Instagram, and `extra` lines. */
async function envFile(name: string, extra: string[] = []): Promise<string> {
	const file = path.join(folder, name)
	const lines = [
		`SESSION_ID=${DEMO_CREDENTIALS.sessionId}`,
		`CSRF_TOKEN=${DEMO_CREDENTIALS.csrfToken}`,
		`DS_USER_ID=${DEMO_CREDENTIALS.dsUserId}`,
		`SMKIT_UPSTREAM_URL=${simulator.url}`,
		...extra
	]
	await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 })
	return file
}

const CALLS = [
	'api/users/username/luna.explorer',
	'api/account/me',
	'api/public/profile/luna.explorer',
	'api/public/posts/luna.explorer?count=5',
	'api/feed/tag/sunset?count=20',
	'api/friendships/pending',
	'api/search/users?q=luna'
]

/** Starts a playground with `raw` options, makes the calls above, stops it; returns its start-up lines and status. */
async function playgroundRun(raw: Record<string, unknown>) {
	const lines: string[] = []
	// A store of its own: the default, demo/smkit.db, is the developer's demo data.
	const options = parsePlaygroundOptions({
		port: 0,
		savedDir: path.join(folder, 'saved'),
		db: path.join(folder, 'smkit.db'),
		...raw
	})
	simulator.requests.clear()
	const running = await startPlaygroundServer(options, {}, (line) => lines.push(line))
	try {
		const statuses: number[] = []
		for (const call of CALLS) statuses.push((await fetch(`${running.url}${call}`)).status)
		const status = await (await fetch(`${running.url}api/status`)).json()
		return { lines, statuses, status: status.data, upstream: simulator.requests.records().slice() }
	} finally {
		await running.stop()
	}
}

describe('a playground run through proxies', () => {
	it('sends every upstream request through the proxy the environment names (HTTP_PROXY)', async () => {
		const only = proxy({ credentials: { user: 'tester', password: 'proxy-pass-9' } })
		const run = await playgroundRun({ env: await envFile('one.env', [`HTTP_PROXY=${only.url}`]) })
		expect(run.statuses).toEqual(CALLS.map(() => 200))
		expect(run.upstream.length).toBeGreaterThanOrEqual(CALLS.length)
		expect(only.requests.map((entry) => new URL(entry.url).pathname)).toEqual(
			run.upstream.map((entry) => entry.path)
		)
		expect(run.lines.join('\n')).toContain('(from the environment)')
		expect(JSON.stringify([run.lines, run.status])).not.toContain('proxy-pass-9')
	})

	it('reaches hosts NO_PROXY names directly', async () => {
		const bypassed = proxy()
		const run = await playgroundRun({
			env: await envFile('no-proxy.env', [`HTTP_PROXY=${bypassed.url}`, 'NO_PROXY=127.0.0.1'])
		})
		expect(run.statuses).toEqual(CALLS.map(() => 200))
		expect(run.upstream.length).toBeGreaterThanOrEqual(CALLS.length)
		expect(bypassed.count).toBe(0)
		expect(run.lines.join('\n')).toContain(`not used: NO_PROXY names ${new URL(simulator.url).host}`)
	})

	it('--proxy-file: three rotating proxies share the run, a dead one is skipped and every call succeeds', async () => {
		const three = [proxy(), proxy(), proxy({ credentials: { user: 'bob', password: 'rotate-pass-7' } })]
		const list = path.join(folder, 'proxies.txt')
		await writeFile(
			list,
			`# a dead proxy first\n${deadProxyUrl()}\n${three.map((entry) => entry.url).join('\n')}\n`
		)
		const run = await playgroundRun({ env: await envFile('list.env'), proxyFile: list, proxyMode: 'rotate' })
		expect(run.statuses).toEqual(CALLS.map(() => 200))
		const counts = three.map((entry) => entry.count)
		expect(counts.reduce((sum, count) => sum + count, 0)).toBe(run.upstream.length)
		for (const count of counts) expect(count).toBeGreaterThanOrEqual(Math.floor(run.upstream.length / 3) - 1)
		expect(run.status.proxies).toEqual({ mode: 'rotate', total: 4, available: 3 })
		expect(JSON.stringify([run.lines, run.status])).not.toContain('rotate-pass-7')
	})
})
