/**
 * A write asked through MCP elicitation that the user never answers is denied after the approval
 * wait (120 s by default, as in the web servers), not after the MCP SDK's own 60-second request
 * timeout, and it is a refusal, not a failure of the server. Driven in process over the SDK's
 * in-memory transport, with a short wait.
 */
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { OutputFiles } from '../../src/agent/files'
import { createDemoClient } from '../../src/demo'
import { createMcpServer } from '../../src/mcp/server'

const folder = mkdtempSync(join(tmpdir(), 'smkit-mcp-wait-'))
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
	for (const close of closing.splice(0)) await close()
})

test('an elicitation nobody answers denies the write after the approval wait', async () => {
	let asked = 0
	const server = createMcpServer({
		// Nothing listens there: a denied write never reaches Instagram.
		client: createDemoClient('http://127.0.0.1:9'),
		version: '0.0.0',
		permission: 'ask_once',
		readOnly: false,
		loggedIn: true,
		files: new OutputFiles('output', { cwd: folder }),
		jobs: () => {
			throw new Error('no jobs in this test')
		},
		watches: () => {
			throw new Error('no watches in this test')
		},
		log: () => {},
		approvalTimeoutMs: 300
	})
	const client = new Client(
		{ name: 'silent-user', version: '1.0.0' },
		{ capabilities: { elicitation: { form: {} } } }
	)
	// The user sees the question and never answers it.
	client.setRequestHandler(ElicitRequestSchema, () => {
		asked++
		return new Promise(() => {})
	})
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
	await server.connect(serverSide)
	await client.connect(clientSide)
	closing.push(
		() => client.close(),
		() => server.close()
	)

	const result = await client.callTool({ name: 'media_like', arguments: { mediaPk: '3842790443716764595' } })
	expect(asked).toBe(1)
	expect(result.isError).toBe(true)
	const failure = JSON.parse((result.content as { text: string }[])[0].text)
	expect(failure).toMatchObject({ success: false, code: 'forbidden' })
	// Without its own wait the call would hang for the SDK's 60 s, past this test's limit.
}, 10_000)

process.on('exit', () => rmSync(folder, { recursive: true, force: true }))
