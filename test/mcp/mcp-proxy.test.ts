/**
 * `smkit mcp` reaches Instagram like every other command: through the proxy the environment file
 * names (HTTP_PROXY for an http:// upstream) or `--proxy`, saying so on standard error with the
 * credentials hidden. It went straight to Instagram, showing the user's own address. Compiled
 * binary over stdio, against a simulator, driven by the MCP SDK's client.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Simulator } from '../../src/simulator/server'
import { type ProxiedUpstream, startProxiedUpstream } from '../support/proxied-upstream'
import type { TestProxy } from '../support/proxy'

let binary: string
let simulator: Simulator
let proxy: TestProxy
let folder: string
let upstream: ProxiedUpstream

beforeAll(async () => {
	upstream = await startProxiedUpstream('smkit-mcp-proxy-', 'proxy-secret-7')
	;({ binary, simulator, proxy, folder } = upstream)
}, 120_000)
afterAll(() => upstream.stop())

/** Starts `smkit mcp ...args`, looks up a profile over stdio, and returns what standard error said. */
async function lookUpProfile(args: string[]): Promise<string> {
	const transport = new StdioClientTransport({
		command: binary,
		args: ['mcp', '--db', join(folder, 'jobs.db'), ...args],
		cwd: folder,
		env: { PATH: process.env.PATH ?? '', HOME: folder },
		stderr: 'pipe'
	})
	let stderr = ''
	transport.stderr?.on('data', (chunk) => {
		stderr += String(chunk)
	})
	const client = new Client({ name: 'smkit-test', version: '1.0.0' })
	await client.connect(transport)
	try {
		const result = await client.callTool({
			name: 'users_get_by_username',
			arguments: { username: 'luna.explorer' }
		})
		expect(result.isError).toBeFalsy()
		expect((result.structuredContent as { username: string }).username).toBe('luna.explorer')
	} finally {
		await client.close()
	}
	return stderr
}

/** Every request the simulator saw while `run` ran came through the proxy. */
async function expectAllThroughProxy(run: () => Promise<string>, proxyLine: RegExp) {
	simulator.requests.clear()
	const before = proxy.count
	const stderr = await run()
	expect(stderr).toMatch(proxyLine)
	expect(stderr).not.toContain('proxy-secret-7')
	const seen = simulator.requests.records().length
	expect(seen).toBeGreaterThan(0)
	expect(proxy.count - before).toBe(seen)
}

test('mcp goes through HTTP_PROXY from the environment file', async () => {
	await expectAllThroughProxy(
		() => lookUpProfile(['--env', 'proxied.env']),
		/^Proxy: http:\/\/\[redacted\]@127\.0\.0\.1:\d+ \(from the environment\)$/m
	)
})

test('mcp goes through --proxy', async () => {
	await expectAllThroughProxy(
		() => lookUpProfile(['--env', 'direct.env', '--proxy', proxy.url]),
		/^Proxy: http:\/\/\[redacted\]@127\.0\.0\.1:\d+$/m
	)
})

test('mcp with a --db that is a folder is bad usage naming the option', async () => {
	const child = Bun.spawn([binary, 'mcp', '--env', 'direct.env', '--db', folder], {
		cwd: folder,
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'pipe'
	})
	// No input: a server that started anyway stops at once instead of waiting for a client.
	child.stdin.end()
	const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
	expect(code).toBe(2)
	expect(stderr).toContain('--db must be the path of a database file, not a folder')
})
