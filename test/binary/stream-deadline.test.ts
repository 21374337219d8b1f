/**
 * Event streams against a short read deadline (`SMKIT_READ_TIMEOUT`): the deadline applies again
 * while a response is written, and a stream may have nothing to say for longer (a job waiting on a
 * slow Instagram, an MCP tool call over HTTP still running). An event stream is written under a
 * deadline of at least 20 s, above its keep-alive interval, so it is not cut. The compiled binary,
 * with a deadline of 2 s and an upstream that answers in 5 s.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { compiledBinary, freePort, waitForOk } from '../support/binary'

const READ_TIMEOUT = 2
const SLOW_MS = 5000
const folder = mkdtempSync(join(tmpdir(), 'smkit-stream-deadline-'))
writeFileSync(join(folder, 'none.env'), '')
const children: ReturnType<typeof Bun.spawn>[] = []
let simulator: string
let playground: string

function spawn(args: string[]) {
	const child = Bun.spawn([binaryPath, ...args], {
		cwd: folder,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: folder,
			SMKIT_READ_TIMEOUT: String(READ_TIMEOUT),
			SMKIT_UPSTREAM_URL: simulator ?? ''
		},
		stdout: 'pipe',
		stderr: 'pipe'
	})
	children.push(child)
	return child
}

/** Makes the simulator answer matching paths in `SLOW_MS`. */
async function slowDown(pathPattern: string) {
	const answer = await fetch(`${simulator}/__sim/faults`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'latency', latencyMs: SLOW_MS, pathPattern, times: 1 })
	})
	expect(answer.status).toBe(200)
}

let binaryPath: string
beforeAll(async () => {
	binaryPath = await compiledBinary()
	const simulatorPort = freePort()
	spawn(['simulator', '--port', String(simulatorPort)])
	simulator = `http://127.0.0.1:${simulatorPort}`
	expect(await waitForOk(`${simulator}/__sim/health`)).toBe(true)
	const port = freePort()
	spawn(['playground', '--demo', '--port', String(port), '--env', 'none.env', '--db', 'jobs.db'])
	playground = `http://127.0.0.1:${port}`
	expect(await waitForOk(`${playground}/api/status`)).toBe(true)
}, 120_000)

afterAll(async () => {
	for (const child of children) child.kill()
	await Promise.all(children.map((child) => child.exited))
	rmSync(folder, { recursive: true, force: true })
})

test("a job's event stream stays open while the job waits longer than the read deadline", async () => {
	await slowDown('/followers/')
	const created = await fetch(`${playground}/api/jobs`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'followers', target: 'luna.explorer', limit: 10 })
	})
	expect(created.status).toBe(200)
	const { data: job } = (await created.json()) as { data: { id: number } }
	const stream = await fetch(`${playground}/api/jobs/${job.id}/events`)
	expect(stream.status).toBe(200)
	// Read to the end: a stream cut by the deadline ends early (or fails) without the last status.
	const text = await stream.text()
	const statuses = [...text.matchAll(/"status":"(\w+)"/g)].map((match) => match[1])
	expect(statuses.at(-1)).toBe('done')
}, 30_000)

test('an MCP tool call over HTTP that takes longer than the read deadline is answered', async () => {
	const child = spawn(['mcp', '--http', '--port', '0', '--env', 'none.env', '--db', 'mcp.db', '--demo'])
	const reader = child.stdout.getReader()
	let output = ''
	while (!/Streamable HTTP\): (\S+)/.test(output)) {
		const { done, value } = await reader.read()
		if (done) throw new Error(`smkit mcp --http exited: ${output}`)
		output += new TextDecoder().decode(value)
	}
	reader.releaseLock()
	const endpoint = (/Streamable HTTP\): (\S+)/.exec(output) as RegExpExecArray)[1]
	const client = new Client({ name: 'smkit-test', version: '1.0.0' })
	await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)))
	await slowDown('web_profile_info')
	const profile = await client.callTool({
		name: 'users_get_by_username',
		arguments: { username: 'luna.explorer' }
	})
	expect(profile.isError).toBeFalsy()
	expect(profile.structuredContent).toMatchObject({ username: 'luna.explorer' })
	await client.close()
}, 30_000)
