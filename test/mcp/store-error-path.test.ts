/**
 * A store that cannot be opened is a tool error saying why, without the absolute path of the
 * server's folders: the text goes into the AI model's context.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { compiledBinary } from '../support/binary'

const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-store-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

test('jobs and watch tools on a store that cannot be opened: the error names it without its absolute path', async () => {
	const elsewhere = join(workDir, 'data', 'deep')
	// A file that is no database: SQLite refuses it when the store is first used.
	mkdirSync(elsewhere, { recursive: true })
	writeFileSync(join(elsewhere, 'smkit.db'), 'this is not a database, only some text '.repeat(200))
	const cwd = join(workDir, 'cwd')
	mkdirSync(cwd)
	writeFileSync(join(cwd, 'empty.env'), '')
	const transport = new StdioClientTransport({
		command: await compiledBinary(),
		args: ['mcp', '--demo', '--env', 'empty.env', '--db', join(elsewhere, 'smkit.db')],
		cwd,
		env: { PATH: process.env.PATH ?? '', HOME: cwd },
		stderr: 'pipe'
	})
	const client = new Client({ name: 'smkit-test', version: '1.0.0' })
	await client.connect(transport)
	try {
		for (const name of ['jobs_status', 'watches_list']) {
			const result = await client.callTool({ name, arguments: {} })
			expect(result.isError).toBe(true)
			const text = (result.content as { text: string }[])[0]?.text ?? ''
			expect(text).toContain('.../deep/smkit.db')
			expect(text).not.toContain(workDir)
		}
	} finally {
		await client.close()
	}
}, 60_000)
