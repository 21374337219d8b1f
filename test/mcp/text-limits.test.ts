/**
 * The MCP tools' text limits count characters (Unicode code points), as the `maxLength` their
 * input schemas publish means and as the playground counts: 200 emoji (two UTF-16 units each) are
 * a search the simulated Instagram answers, 201 are a bad_request; a follower search likewise at
 * 100. Driven in process over the SDK's in-memory transport, against the simulator.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { OutputFiles } from '../../src/agent/files'
import { createDemoClient } from '../../src/demo'
import { createMcpServer } from '../../src/mcp/server'
import { type Simulator, startSimulator } from '../../src/simulator/server'

const emoji = (count: number) => '😀'.repeat(count)
const boldA = (count: number) => '𝐀'.repeat(count)

const folder = mkdtempSync(join(tmpdir(), 'smkit-mcp-text-'))
let simulator: Simulator
let client: Client
const closing: (() => Promise<void>)[] = []

beforeAll(async () => {
	simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	const unused = () => {
		throw new Error('not used here')
	}
	const server = createMcpServer({
		client: createDemoClient(simulator.url),
		version: '0.0.0',
		permission: 'ask_once',
		readOnly: true,
		loggedIn: true,
		files: new OutputFiles('output', { cwd: folder }),
		jobs: unused,
		watches: unused,
		log: () => {}
	})
	client = new Client({ name: 'user', version: '1.0.0' })
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
	await server.connect(serverSide)
	await client.connect(clientSide)
	closing.push(
		() => client.close(),
		() => server.close()
	)
})
afterAll(async () => {
	for (const close of closing.splice(0)) await close()
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

const call = async (name: string, args: Record<string, unknown>) => {
	const result = await client.callTool({ name, arguments: args })
	const text = (result.content as { text: string }[])[0]?.text ?? '{}'
	return { isError: result.isError === true, body: JSON.parse(text) }
}

describe('MCP text limits are in characters', () => {
	test('users_search: 200 characters are searched, 201 are a bad_request', async () => {
		for (const query of [emoji(150), emoji(200), boldA(200)]) {
			const result = await call('users_search', { query })
			expect(result).toMatchObject({ isError: false })
		}
		expect(await call('users_search', { query: emoji(201) })).toEqual({
			isError: true,
			body: expect.objectContaining({
				code: 'bad_request',
				error: "Invalid argument 'query': Expected string length less or equal to 200"
			})
		})
	})

	test('friendships_get_followers: a search of 100 characters is taken, 101 is a bad_request', async () => {
		const args = { userPk: '1000000002' }
		expect(await call('friendships_get_followers', { ...args, query: emoji(100) })).toMatchObject({
			isError: false
		})
		expect(await call('friendships_get_followers', { ...args, query: emoji(101) })).toEqual({
			isError: true,
			body: expect.objectContaining({
				code: 'bad_request',
				error: "Invalid argument 'query': Expected string length less or equal to 100"
			})
		})
	})

	test('blank and unpaired-surrogate text keep clear refusals', async () => {
		expect((await call('users_search', { query: '   ' })).body.error).toBe(
			"Invalid argument 'query': expected search text: 1-200 characters, not only spaces"
		)
		expect(await call('friendships_get_followers', { userPk: '1000000002', query: '   ' })).toEqual({
			isError: true,
			body: expect.objectContaining({
				code: 'bad_request',
				error:
					"Invalid argument 'query': expected search text within the list (only the items whose username or full name contains it): 1-100 characters, not only spaces"
			})
		})
		expect((await call('users_search', { query: 'a\ud800' })).body.error).toBe(
			"Invalid argument 'query': Expected Unicode text (an unpaired UTF-16 surrogate is none)"
		)
	})

	test('the tool list publishes the limits in characters', async () => {
		const { tools } = await client.listTools()
		const property = (tool: string, name: string) => {
			const properties = tools.find((entry) => entry.name === tool)?.inputSchema.properties ?? {}
			return (properties as Record<string, unknown>)[name]
		}
		expect(property('users_search', 'query')).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 })
		expect(property('friendships_get_followers', 'query')).toMatchObject({
			type: 'string',
			minLength: 1,
			maxLength: 100
		})
	})
})
