/**
 * The audit's calls again, on the compiled `smkit mcp --demo` over stdio with the MCP SDK's Client:
 * 200 posts come back within the result budget (text and structuredContent the same JSON, a cursor
 * after the last post), and a 20,000-character cursor or a 1e300 job limit is a bad_request naming
 * the field.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { MAX_RESULT_CHARS } from '../../src/mcp/result-budget'
import { compiledBinary } from '../support/binary'

const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-bounds-bin-'))
writeFileSync(join(workDir, 'empty.env'), '')
const client = new Client({ name: 'smkit-test', version: '1.0.0' })

beforeAll(async () => {
	const transport = new StdioClientTransport({
		command: await compiledBinary(),
		args: ['mcp', '--demo', '--env', 'empty.env', '--db', 'jobs.db'],
		cwd: workDir,
		env: { PATH: process.env.PATH ?? '', HOME: workDir },
		stderr: 'pipe'
	})
	await client.connect(transport)
})

afterAll(async () => {
	await client.close().catch(() => {})
	rmSync(workDir, { recursive: true, force: true })
})

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
	(result.content as { text: string }[])[0]?.text ?? ''

test('200 posts asked: the first ones that fit, within the budget, with a cursor after them', async () => {
	const result = await client.callTool({ name: 'search_explore', arguments: { count: 200 } })
	expect(result.isError).toBeFalsy()
	expect(textOf(result).length).toBeLessThanOrEqual(MAX_RESULT_CHARS)
	const page = result.structuredContent as { items: unknown[]; next_cursor: string | null }
	expect(JSON.parse(textOf(result))).toEqual(page)
	expect(page.items.length).toBeGreaterThan(0)
	expect(page.items.length).toBeLessThan(200)
	expect(typeof page.next_cursor).toBe('string')
})

test('arguments outside the bounds are bad requests naming the field', async () => {
	const calls = [
		['friendships_get_followers', { userPk: '1000000002', cursor: 'a'.repeat(20000) }, 'cursor'],
		['jobs_start', { kind: 'posts', target: 'luna.explorer', limit: 1e300 }, 'limit'],
		['jobs_status', { id: 1e300 }, 'id'],
		['users_get_by_id', { userPk: ' 1000000002' }, 'userPk']
	] as const
	for (const [name, args, field] of calls) {
		const result = await client.callTool({ name, arguments: args })
		expect(result.isError).toBe(true)
		expect(JSON.parse(textOf(result))).toMatchObject({
			code: 'bad_request',
			error: expect.stringContaining(`Invalid argument '${field}'`)
		})
	}
})
