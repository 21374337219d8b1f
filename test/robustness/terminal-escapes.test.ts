/**
 * Text from Instagram never drives the terminal: a crafted upstream puts escape sequences (retitle
 * the window, clear the screen, colour, bell) in a full name, a username and an error message, and
 * every command that prints them (analytics, compare, collect, watch run, login, any failure) shows
 * them as `\x1b`-style text instead; so does a CSV collected to a terminal. The compiled binary against the simulator behind a rewriting
 * proxy.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEMO_PRESETS, XSS_PAYLOADS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from '../support/binary'
import { demoCookieHeader } from '../support/demo-cookies'
import { runProcess } from '../support/process'

/** OSC 0 (window title) ended by BEL, erase display, a colour, and a C1 CSI. */
const HOSTILE = '\u001b]0;PWNED\u0007\u001b[2J\u001b[31mRED\u009b1m'
const json = (text: string) => JSON.stringify(text).slice(1, -1)

let binary: string
let simulator: Simulator
let hostile: ReturnType<typeof Bun.serve>
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	// xss.payload's full name, the demo account's username and "User not found" become escapes.
	const swaps: [string, string][] = [
		[json(XSS_PAYLOADS.imgOnerror), json(HOSTILE)],
		['"username":"smkit_demo"', `"username":"smkit_demo${json(HOSTILE)}"`],
		['User not found', json(HOSTILE)]
	]
	hostile = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const url = new URL(request.url)
			const headers = new Headers(request.headers)
			headers.delete('host')
			headers.delete('accept-encoding')
			const answer = await fetch(`${simulator.url}${url.pathname}${url.search}`, {
				method: request.method,
				headers,
				body: request.method === 'GET' ? undefined : await request.arrayBuffer()
			})
			let text = await answer.text()
			for (const [from, to] of swaps) text = text.replaceAll(from, to)
			const out = new Headers(answer.headers)
			out.delete('content-length')
			out.delete('content-encoding')
			return new Response(text, { status: answer.status, headers: out })
		}
	})
	folder = mkdtempSync(join(tmpdir(), 'smkit-terminal-'))
	const { sessionId, csrfToken, dsUserId } = simulator.credentials
	writeFileSync(
		join(folder, 'hostile.env'),
		`SMKIT_UPSTREAM_URL=${hostile.url.origin}\nSESSION_ID=${sessionId}\nCSRF_TOKEN=${csrfToken}\nDS_USER_ID=${dsUserId}\n`
	)
	writeFileSync(join(folder, 'login.env'), `SMKIT_UPSTREAM_URL=${hostile.url.origin}\n`)
	writeFileSync(join(folder, 'cookies.txt'), demoCookieHeader())
}, 120_000)

afterAll(async () => {
	hostile?.stop(true)
	await simulator?.stop()
	rmSync(folder, { recursive: true, force: true })
})

async function smkit(...args: string[]) {
	const { code, stdout, stderr } = await runProcess([binary, ...args], { cwd: folder })
	return { code, output: `${stdout}${stderr}` }
}

/**
 * No control character but newline reaches the terminal, and the hostile text is there, shown
 * escaped (or, in a table cell, with a space for each control character).
 */
function expectDefused(output: string, escaped = true): void {
	expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
	expect(output).toContain(
		escaped ? '\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31mRED\\x9b1m' : ' ]0;PWNED [2J [31mRED 1m'
	)
}

const env = ['--env', 'hostile.env']

test('analytics and compare print a hostile full name and username as text', async () => {
	const analytics = await smkit('analytics', 'xss.payload', '--posts', '3', ...env)
	expect(analytics.code).toBe(0)
	expect(analytics.output).toStartWith('@xss.payload (')
	expectDefused(analytics.output)

	const compare = await smkit('compare', 'xss.payload', 'smkit_demo', '--posts', '3', ...env)
	expect(compare.code).toBe(0)
	expectDefused(compare.output, false)
})

test("a failure quoting Instagram's message, in any command, prints it as text", async () => {
	const analytics = await smkit('analytics', 'nobody.here.zz', ...env)
	expect(analytics.code).toBe(1)
	expectDefused(analytics.output)

	const collect = await smkit('collect', 'followers', 'nobody.here.zz', '--db', 'c.db', ...env)
	expect(collect.code).toBe(1)
	expectDefused(collect.output)

	const watch = ['--db', 'w.db', ...env]
	expect((await smkit('watch', 'add', 'nobody.here.zz', '--skip-check', ...watch)).code).toBe(0)
	const run = await smkit('watch', 'run', ...watch)
	expect(run.code).toBe(1)
	expect(run.output).toContain('FAILED  watch 1 @nobody.here.zz')
	expectDefused(run.output)
})

test('--json output stays valid JSON holding the hostile text exactly, with no control character sent raw', async () => {
	const jsonOf = async (...args: string[]) => {
		const child = Bun.spawn([binary, ...args, '--json', ...env], {
			cwd: folder,
			stdout: 'pipe',
			stderr: 'pipe'
		})
		const [code, stdout] = await Promise.all([child.exited, new Response(child.stdout).text()])
		expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
		return { code, value: JSON.parse(stdout) }
	}
	const analytics = await jsonOf('analytics', 'xss.payload', '--posts', '3')
	expect(analytics.code).toBe(0)
	expect(analytics.value.full_name).toBe(HOSTILE)
	const compare = await jsonOf('compare', 'xss.payload', 'smkit_demo', '--posts', '3')
	expect(compare.value.accounts[0].full_name).toBe(HOSTILE)

	const watch = ['--db', 'json.db']
	expect((await smkit('watch', 'add', 'nobody.here.zz', '--skip-check', ...watch, ...env)).code).toBe(0)
	const run = await jsonOf('watch', 'run', ...watch)
	expect(run.code).toBe(1)
	expect(run.value[0].error).toContain(HOSTILE)
	const list = await jsonOf('watch', 'list', ...watch)
	expect(list.value[0].last_error).toContain(HOSTILE)
})

test('login prints the account name Instagram reports as text', async () => {
	const login = await smkit('login', '--cookies', 'cookies.txt', '--env', 'login.env')
	expect(login.code).toBe(0)
	expect(login.output).toContain('Logged in as @smkit_demo')
	expectDefused(login.output)
})

test('collect --format csv on a terminal shows a hostile comment as text; into a pipe it stays exact', async () => {
	const post = DEMO_PRESETS.xssMediaPks[0] as string
	const args = ['collect', 'comments', post, '--format', 'csv', '--fresh', '--db', 'csv.db', ...env]
	let screen = ''
	const child = Bun.spawn([binary, ...args], {
		cwd: folder,
		terminal: {
			cols: 200,
			rows: 50,
			data(_terminal, data) {
				screen += new TextDecoder().decode(data)
			}
		}
	})
	expect(await child.exited).toBe(0)
	expect(screen).not.toContain('\u001b]0;PWNED')
	expect(screen).toContain('\\x1b]0;PWNED\\x07\\x1b[2J')

	const piped = await smkit(...args)
	expect(piped.code).toBe(0)
	expect(piped.output).toContain(`${HOSTILE} nice pic`)
})
