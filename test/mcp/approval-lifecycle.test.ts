/**
 * What an MCP write's question to the user goes through besides an answer: a media job asks it as
 * a file write (it downloads files onto this computer), a cancelled call withdraws it (the client
 * is told, so its dialog closes), and a client whose input ended cannot answer it, so the write is
 * denied at once. Driven in process over the SDK's in-memory transport.
 */
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { OutputFiles } from '../../src/agent/files'
import type { PermissionLevel } from '../../src/agent/permissions'
import { createDemoClient } from '../../src/demo'
import type { JobManager } from '../../src/jobs/manager'
import { createMcpServer } from '../../src/mcp/server'

const folder = mkdtempSync(join(tmpdir(), 'smkit-mcp-approval-'))
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
	for (const close of closing.splice(0)) await close()
})
process.on('exit', () => rmSync(folder, { recursive: true, force: true }))

type Answer = (message: string, signal: AbortSignal) => Promise<boolean>

/** A server and a client; `answer` decides each question (undefined: the client cannot ask). */
async function connect(options: { answer?: Answer; permission?: PermissionLevel; inputEnded?: AbortSignal }) {
	const started: unknown[] = []
	const manager = {
		startOrContinue: (spec: unknown) => {
			started.push(spec)
			return {
				id: 1,
				kind: 'media',
				target: 'luna.explorer',
				limit: null,
				owner: 'mcp',
				demo: true,
				status: 'queued',
				collected: 0,
				total: null,
				pages: 0,
				error: null,
				error_code: null,
				created_at: '',
				updated_at: ''
			}
		}
	} as unknown as JobManager
	const server = createMcpServer({
		client: createDemoClient('http://127.0.0.1:9'),
		version: '0.0.0',
		permission: options.permission ?? 'ask_once',
		readOnly: false,
		loggedIn: true,
		files: new OutputFiles('output', { cwd: folder }),
		jobs: () => manager,
		watches: () => {
			throw new Error('no watches in this test')
		},
		log: () => {},
		approvalTimeoutMs: 60_000,
		inputEnded: options.inputEnded
	})
	const asked: string[] = []
	const client = new Client(
		{ name: 'user', version: '1.0.0' },
		{ capabilities: options.answer ? { elicitation: { form: {} } } : {} }
	)
	const answer = options.answer
	if (answer)
		client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
			asked.push(request.params.message)
			const allow = await answer(request.params.message, extra.signal)
			return { action: 'accept', content: { allow } }
		})
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
	await server.connect(serverSide)
	await client.connect(clientSide)
	closing.push(
		() => client.close(),
		() => server.close()
	)
	return { client, asked, started }
}

const failureOf = (result: unknown) =>
	JSON.parse((result as { content: { text: string }[] }).content[0]?.text ?? '{}')
const startMedia = { name: 'jobs_start', arguments: { kind: 'media', target: 'luna.explorer', limit: 3 } }

test('a media job asks first, as a file write: denied, no job starts; allowed, it does', async () => {
	let allow = false
	const { client, asked, started } = await connect({ answer: async () => allow })
	const denied = await client.callTool(startMedia)
	expect(asked).toHaveLength(1)
	expect(asked[0]).toStartWith(
		'smkit wants to write a file on this computer: Media job: download every picture and video of luna.explorer'
	)
	expect(failureOf(denied)).toMatchObject({
		code: 'forbidden',
		error: 'Refused: the user did not allow downloading the media of luna.explorer.'
	})
	expect(started).toEqual([])
	allow = true
	const allowed = await client.callTool(startMedia)
	expect(allowed.isError).toBeFalsy()
	expect(started).toEqual([{ kind: 'media', target: 'luna.explorer', limit: 3 }])
	// Other kinds write no file: nobody is asked.
	await client.callTool({ name: 'jobs_start', arguments: { kind: 'posts', target: 'luna.explorer' } })
	expect(asked).toHaveLength(2)
})

test('a client that cannot ask gets the media job refused, saying why; full_access needs no question', async () => {
	const { client, started } = await connect({})
	const refused = await client.callTool(startMedia)
	expect(failureOf(refused).error).toContain(
		'a media job downloads files onto this computer, and under --permission ask_once smkit asks the user first, but this MCP client does not support elicitation'
	)
	expect(started).toEqual([])
	const full = await connect({ permission: 'full_access' })
	expect((await full.client.callTool(startMedia)).isError).toBeFalsy()
	expect(full.started).toHaveLength(1)
})

test('a cancelled call withdraws its question: the client is told', async () => {
	let withdrawn = false
	const { client, asked } = await connect({
		answer: (_message, signal) =>
			// The first question is answered at once: the SDK's client ignores a cancellation of the
			// request numbered 0, so the question withdrawn here is the second.
			asked.length === 1
				? Promise.resolve(false)
				: new Promise((resolve) =>
						signal.addEventListener('abort', () => {
							withdrawn = true
							resolve(true)
						})
					)
	})
	const like = { name: 'media_like', arguments: { mediaPk: '3842790443716764595' } }
	expect(failureOf(await client.callTool(like))).toMatchObject({ code: 'forbidden' })
	const controller = new AbortController()
	const call = client.callTool(like, undefined, { signal: controller.signal })
	while (asked.length < 2) await Bun.sleep(5)
	controller.abort(new Error('the user moved on'))
	await call.catch(() => undefined)
	for (let tries = 0; tries < 100 && !withdrawn; tries++) await Bun.sleep(10)
	expect(withdrawn).toBe(true)
})

test('once the input ended nobody can answer: a waiting write is denied at once', async () => {
	const inputGone = new AbortController()
	const { client, asked } = await connect({
		answer: () => new Promise(() => {}),
		inputEnded: inputGone.signal
	})
	// The approval wait is 60 s: a write still waiting for it would outlast this test's 10 s.
	const call = client.callTool({ name: 'media_like', arguments: { mediaPk: '3842790443716764595' } })
	while (asked.length === 0) await Bun.sleep(5)
	inputGone.abort(new Error('input ended'))
	const result = await call
	expect(failureOf(result)).toMatchObject({ code: 'forbidden' })
}, 10_000)
