/**
 * `smkit mcp` over stdio when the client closes its input right after sending calls (a client
 * piping a script of requests): every call already sent is answered, in full, before smkit exits.
 */
import { afterAll, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { compiledBinary } from '../support/binary'

const root = resolve(import.meta.dir, '../..')
const workDir = mkdtempSync(join(tmpdir(), 'smkit-mcp-end-'))
writeFileSync(join(workDir, 'empty.env'), '')
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

const message = (id: number | undefined, method: string, params: object) =>
	`${JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params })}\n`

/** `smkit mcp --demo` from the sources over stdio, in the test's folder, its store at `db`. */
const mcp = (db: string) =>
	Bun.spawn(
		[process.execPath, join(root, 'src/main.ts'), 'mcp', '--demo', '--env', 'empty.env', '--db', db],
		{
			cwd: workDir,
			stdin: 'pipe',
			stdout: 'pipe',
			stderr: 'pipe',
			env: { PATH: process.env.PATH ?? '', HOME: workDir }
		}
	)

it('answers the tool calls sent before the input ended, then exits 0', async () => {
	const child = mcp('jobs.db')
	child.stdin.write(
		message(1, 'initialize', {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'pipe', version: '1.0.0' }
		}) +
			message(undefined, 'notifications/initialized', {}) +
			message(2, 'tools/call', { name: 'users_get_by_username', arguments: { username: 'luna.explorer' } }) +
			message(3, 'tools/call', {
				name: 'run_code',
				arguments: {
					code: "const user = await ig.users.getByUsername('luna.explorer')\nreturn user.username"
				}
			})
	)
	await child.stdin.end()
	const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()])
	expect(code).toBe(0)
	const answers = stdout
		.trim()
		.split('\n')
		.map(
			(line) =>
				JSON.parse(line) as { id: number; result?: { content: { text: string }[]; isError?: boolean } }
		)
	expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3])
	const byId = new Map(answers.map((answer) => [answer.id, answer]))
	expect(byId.get(2)?.result?.isError).toBeFalsy()
	expect(byId.get(2)?.result?.content[0]?.text).toContain('"username":"luna.explorer"')
	expect(byId.get(3)?.result?.content[0]?.text).toContain('luna.explorer')
})

it('the compiled binary hands over an answer longer than the pipe holds before exiting, to a client slow to read', async () => {
	writeFileSync(
		join(workDir, 'list.jsonl'),
		message(1, 'initialize', {
			protocolVersion: '2025-06-18',
			capabilities: {},
			clientInfo: { name: 'pipe', version: '1.0.0' }
		}) + message(2, 'tools/list', {})
	)
	// A reader that starts late: the tools/list answer (over 64 KiB, more than a pipe holds) waits
	// in the pipe meanwhile, and smkit used to exit with only the part the pipe had taken.
	const child = Bun.spawn(
		['sh', '-c', '"$SMKIT" mcp --demo --env empty.env --db jobs.db < list.jsonl | (sleep 2; cat)'],
		{
			cwd: workDir,
			stdout: 'pipe',
			stderr: 'pipe',
			env: { PATH: process.env.PATH ?? '', HOME: workDir, SMKIT: await compiledBinary() }
		}
	)
	const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()])
	expect(code).toBe(0)
	const answers = stdout
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as { id: number; result?: { tools?: { name: string }[] } })
	const list = answers.find((answer) => answer.id === 2)
	expect(JSON.stringify(list).length).toBeGreaterThan(65_536)
	expect(list?.result?.tools?.map((tool) => tool.name)).toContain('users_get_by_username')
})

it('a --db in a folder that does not exist is refused at start, naming the folder (exit 2)', async () => {
	const child = mcp('nope/s.db')
	const [code, stdout, stderr] = await Promise.all([
		child.exited,
		new Response(child.stdout).text(),
		new Response(child.stderr).text()
	])
	expect(code).toBe(2)
	expect(stdout).toBe('')
	expect(stderr).toContain('--db: there is no folder nope (create it first, or give --db another path)')
})
