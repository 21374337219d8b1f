/**
 * `smkit analytics`, `compare` and `watch run` reach Instagram like `collect` does: through the
 * proxy the environment names (HTTP_PROXY for an http:// upstream) or `--proxy`, saying so on
 * standard error (credentials hidden), never around it. Compiled binary, against a simulator.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
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
	upstream = await startProxiedUpstream('smkit-upstream-cli-', 'proxy-secret-5')
	;({ binary, simulator, proxy, folder } = upstream)
}, 120_000)
afterAll(() => upstream.stop())

const smkit = (...args: string[]) => runProcess([binary, ...args], { cwd: folder })

/** Runs the command; every request the simulator saw in the meantime must have come through the proxy. */
async function throughProxy(args: string[], proxyLine: RegExp) {
	simulator.requests.clear()
	const before = proxy.count
	const result = await smkit(...args)
	expect(result.code).toBe(0)
	expect(result.stderr).toMatch(proxyLine)
	expect(`${result.stdout}${result.stderr}`).not.toContain('proxy-secret-5')
	const seen = simulator.requests.records().length
	expect(seen).toBeGreaterThan(0)
	expect(proxy.count - before).toBe(seen)
	return result
}

test('analytics and compare go through HTTP_PROXY from the environment file; standard output holds only the figures', async () => {
	const fromEnvironment = /^Proxy: http:\/\/\[redacted\]@127\.0\.0\.1:\d+ \(from the environment\)$/m
	const analytics = await throughProxy(
		['analytics', 'luna.explorer', '--posts', '3', '--json', '--env', 'proxied.env'],
		fromEnvironment
	)
	expect(JSON.parse(analytics.stdout).username).toBe('luna.explorer')
	await throughProxy(
		['compare', 'luna.explorer', 'mega.travel', '--posts', '3', '--env', 'proxied.env'],
		fromEnvironment
	)
})

test('watch run goes through --proxy', async () => {
	const watch = ['--db', 'watch.db', '--env', 'direct.env']
	expect((await smkit('watch', 'add', 'luna.explorer', ...watch)).code).toBe(0)
	const result = await throughProxy(
		['watch', 'run', '--proxy', proxy.url, ...watch],
		/^Proxy: http:\/\/\[redacted\]@127\.0\.0\.1:\d+$/m
	)
	expect(result.stdout).toMatch(/ok +watch 1 @luna\.explorer: snapshot \d+/)
})
