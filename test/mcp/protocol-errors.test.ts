/**
 * `smkit mcp` answers what is not a proper call with a JSON-RPC error and keeps serving: on stdio a
 * line that is not JSON gets -32700, JSON that is not a JSON-RPC message (a batch included) -32600,
 * a line over the size limit -32600; on both transports a call whose params lack the protocol's
 * shape, or that names an unknown tool, gets -32602. A bad argument of a known tool stays a tool
 * error (the failure envelope), which the model reads and corrects.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { mcpHttpApp } from '../../src/mcp/serve'
import { LineTransport } from '../../src/mcp/stdio-transport'
import { compiledBinary } from '../support/binary'

const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-errors-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

interface Answer {
	id: number | string | null
	result?: { content: { text: string }[]; isError?: boolean }
	error?: { code: number; message: string }
}

const request = (id: number, method: string, params?: unknown) =>
	JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })

/** Runs the compiled `smkit mcp --demo` on stdio with `lines` as its whole input; resolves to its answers. */
async function runStdio(lines: string[]): Promise<Answer[]> {
	writeFileSync(join(workDir, 'empty.env'), '')
	const child = Bun.spawn(
		[await compiledBinary(), 'mcp', '--demo', '--env', 'empty.env', '--db', 'jobs.db'],
		{
			cwd: workDir,
			stdin: 'pipe',
			stdout: 'pipe',
			stderr: 'pipe',
			env: { PATH: process.env.PATH ?? '', HOME: workDir }
		}
	)
	child.stdin.write(lines.map((line) => `${line}\n`).join(''))
	await child.stdin.end()
	const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()])
	expect(code).toBe(0)
	return stdout
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as Answer)
}

describe('smkit mcp on stdio', () => {
	it('answers unreadable lines, malformed calls and unknown tools with JSON-RPC errors, and keeps serving', async () => {
		const answers = await runStdio([
			'not json',
			request(1, 'initialize', {
				protocolVersion: '2025-06-18',
				capabilities: {},
				clientInfo: { name: 'pipe', version: '1.0.0' }
			}),
			JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
			'',
			'{"jsonrpc":"2.0","id":2,',
			JSON.stringify({ id: 3, method: 'ping' }),
			JSON.stringify([{ jsonrpc: '2.0', id: 4, method: 'ping' }]),
			'"just a string"',
			JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }),
			JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping', params: [] }),
			request(5, 'tools/call'),
			request(6, 'tools/call', { name: 'users_get_by_username', arguments: 'luna.explorer' }),
			request(7, 'tools/call', { name: 'no_such_tool', arguments: {} }),
			request(8, 'tools/call', { name: 'users_get_by_username', arguments: { username: 5 } }),
			request(9, 'tools/call', { name: 'users_get_by_username', arguments: { username: 'luna.explorer' } })
		])
		const errors = answers.filter((answer) => answer.error)
		const codeOf = (id: Answer['id']) => errors.filter((answer) => answer.id === id).map((a) => a.error?.code)
		// Unreadable lines answer with a null id: the bad JSON (twice), the batch, the string, the null id.
		expect(codeOf(null).sort()).toEqual([-32700, -32700, -32600, -32600, -32600].sort())
		expect(codeOf(3)).toEqual([-32600])
		expect(codeOf(10)).toEqual([-32600])
		// The message says what is wrong with the message.
		expect(errors.find((answer) => answer.id === 10)?.error?.message).toContain('"params" must be an object')
		expect(
			errors.some((answer) => answer.error?.message.includes('"id" must be a string or an integer'))
		).toBe(true)
		expect(codeOf(5)).toEqual([-32602])
		expect(codeOf(6)).toEqual([-32602])
		expect(errors.find((answer) => answer.id === 6)?.error?.message).toContain('arguments')
		expect(errors.find((answer) => answer.id === 7)?.error).toEqual({
			code: -32602,
			message: 'Unknown tool: no_such_tool'
		})
		const results = new Map(
			answers.filter((answer) => answer.result).map((answer) => [answer.id, answer.result])
		)
		expect(results.get(8)?.isError).toBe(true)
		expect(results.get(8)?.content[0]?.text).toContain("Invalid argument 'username'")
		expect(results.get(9)?.isError).toBeFalsy()
		expect(results.get(9)?.content[0]?.text).toContain('"username":"luna.explorer"')
		for (const answer of answers) expect(answer.error?.code).not.toBe(-32603)
	})
})

describe('the stdio transport', () => {
	it('refuses a line over its limit, skips it to its end, and reads the next one', async () => {
		const input = new PassThrough()
		const output = new PassThrough()
		const transport = new LineTransport(input, output, 64)
		const received: unknown[] = []
		transport.onmessage = (message) => received.push(message)
		await transport.start()
		input.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(100)}`)
		input.write(`${'y'.repeat(100)}"}}\n`)
		input.write(`${request(2, 'ping')}\n`)
		await new Promise((resolve) => setImmediate(resolve))
		const written = String(output.read() ?? '')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line))
		expect(written).toEqual([
			{
				jsonrpc: '2.0',
				id: null,
				error: { code: -32600, message: 'Invalid Request: a message is at most 64 bytes' }
			}
		])
		expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }])
		await transport.close()
	})

	it('answers written while the client does not read wait for one drain, all delivered once it reads', async () => {
		const input = new PassThrough()
		// A pipe that holds little, as a client that stopped reading leaves it.
		const output = new PassThrough({ highWaterMark: 16 })
		const transport = new LineTransport(input, output)
		await transport.start()
		const sent = Array.from({ length: 50 }, (_, id) => transport.send({ jsonrpc: '2.0', id, result: {} }))
		expect(output.listenerCount('drain')).toBe(1)
		let text = ''
		output.on('data', (chunk) => {
			text += String(chunk)
		})
		await Promise.all(sent)
		expect(
			text
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line).id)
		).toEqual(Array.from({ length: 50 }, (_, id) => id))
		expect(output.listenerCount('drain')).toBe(0)
		await transport.close()
	})
})

describe('smkit mcp --http', () => {
	it('answers a call whose params lack the protocol shape -32602, not an internal error', async () => {
		const app = mcpHttpApp({ port: 8866 }, () => {
			const server = new Server({ name: 'test', version: '1.0.0' }, { capabilities: { tools: {} } })
			server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [] }))
			return server
		})
		const send = async (body: object, sessionId?: string) => {
			const response = await app.handle(
				new Request('http://127.0.0.1:8866/mcp', {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						accept: 'application/json, text/event-stream',
						...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {})
					},
					body: JSON.stringify(body)
				})
			)
			return { session: response.headers.get('mcp-session-id'), text: await response.text() }
		}
		const opened = await send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } }
		})
		const session = opened.session as string
		await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)
		const answer = await send(
			{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', arguments: 'not an object' } },
			session
		)
		const data = JSON.parse(/^data: (.*)$/m.exec(answer.text)?.[1] ?? answer.text)
		expect(data).toMatchObject({ id: 2, error: { code: -32602 } })
		expect(data.error.message).toContain('params.arguments')
	})
})
