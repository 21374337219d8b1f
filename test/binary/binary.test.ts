/**
 * The compiled binary as a user runs it: copied into an empty folder, with nothing beside it.
 * Catches what only the bundle can break (embedded assets, minification, argv handling).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import packageJson from '../../package.json'
import { compiledBinary, freePort, waitForOk } from '../support/binary'
import { runProcess } from '../support/process'

let folder: string
let binary: string

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-empty-'))
	binary = join(folder, 'smkit')
	copyFileSync(await compiledBinary(), binary)
}, 120_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Runs the binary to completion in the empty folder, with `input` as its standard input. */
function runWithInput(input: string | undefined, ...args: string[]) {
	return runProcess([binary, ...args], { cwd: folder, stdin: input })
}

/** Runs the binary to completion in the empty folder, without standard input. */
const run = (...args: string[]) => runWithInput(undefined, ...args)

/** A Cookie header as `login --cookies -` reads it. */
const COOKIE_HEADER = 'sessionid=1%3Asecret-value; csrftoken=csrf-value; ds_user_id=1'

describe('smkit binary', () => {
	it('lists the four commands in --help', async () => {
		const { code, stdout } = await run('--help')
		expect(code).toBe(0)
		for (const command of ['playground', 'agent-web', 'ask', 'simulator']) expect(stdout).toContain(command)
	})

	it('prints its version', async () => {
		const { code, stdout } = await run('--version')
		expect(code).toBe(0)
		expect(stdout).toContain(packageJson.version)
		// The runtime named is Bun's own version, not the Node.js version Bun reports as process.version.
		expect(stdout.trim()).toBe(
			`smkit/${packageJson.version} ${process.platform}-${process.arch} bun-${Bun.version}`
		)
	})

	it('answers an unknown command with help and exit code 2', async () => {
		const { code, stderr, stdout } = await run('frobnicate')
		expect(code).toBe(2)
		expect(stderr).toContain("unknown command 'frobnicate'\n")
		expect(stdout).toContain('Commands:')
		// A typo close to one command names it, instead of the whole help.
		const typo = await run('colect', 'followers', 'luna.explorer')
		expect(typo.code).toBe(2)
		expect(typo.stderr).toBe(
			"smkit: unknown command 'colect' (did you mean 'collect'?)\nRun 'smkit --help' for the commands.\n"
		)
		expect(typo.stdout).toBe('')
	})

	it('rejects a bad option value with exit code 2', async () => {
		const { code } = await run('playground', '--port', 'banana')
		expect(code).toBe(2)
	})

	it('answers a missing argument, a missing option value or an extra argument with exit code 2', async () => {
		for (const [args, message, command] of [
			[['collect', 'followers'], 'smkit: missing arguments: smkit collect KIND TARGET\n', 'collect'],
			[['analytics', 'luna.explorer', '--posts'], 'smkit: --posts needs a value\n', 'analytics'],
			// An empty value (an unset shell variable) is a missing one, said the same way.
			[['analytics', 'luna.explorer', '--posts', ''], 'smkit: --posts needs a value\n', 'analytics'],
			[['logout', 'now'], "smkit: unexpected argument 'now'\n", 'logout']
		] as const) {
			const { code, stderr } = await run(...args)
			expect(code).toBe(2)
			expect(stderr).toContain(message)
			expect(stderr).toContain(`Run 'smkit ${command} --help'`)
		}
	})

	it('login --cookies - reads standard input (a lone - is the option value, not a flag)', async () => {
		const { code, stdout, stderr } = await runWithInput(
			COOKIE_HEADER,
			...['login', '--cookies', '-', '--skip-check', '--env', 'login-stdin.env']
		)
		expect(stderr).toBe('')
		expect(code).toBe(0)
		expect(stdout).toContain('Read 3 instagram.com cookies from the Cookie header')
		expect(stdout).not.toContain('secret-value')
		const written = readFileSync(join(folder, 'login-stdin.env'), 'utf8')
		rmSync(join(folder, 'login-stdin.env'))
		expect(written).toContain('SESSION_ID=1%3Asecret-value')
	})

	it('login and logout name an --env that is a folder or lies in a missing one', async () => {
		for (const [args, message] of [
			[['login', '--skip-check', '--env', '.'], "--env: '.' is a folder"],
			[
				['login', '--skip-check', '--env', 'no-such-folder/.env'],
				"--env: there is no folder 'no-such-folder'"
			],
			[['logout', '--env', '.'], "--env: '.' is a folder"]
		] as const) {
			const { code, stderr } = await runWithInput(COOKIE_HEADER, ...args)
			expect(stderr).toContain(message)
			expect(code).toBe(2)
		}
	})

	it('checks a negative number against the option it was given to', async () => {
		const { code, stderr } = await run('playground', '--port', '-1')
		expect(code).toBe(2)
		expect(stderr).toContain("--port must be an integer from 0 to 65535, got '-1'")
	})

	it('keeps a word after a switch as typed (a username of digits is not turned into a number)', async () => {
		const { code, stdout } = await run(
			'watch',
			'add',
			'--demo',
			'0012345',
			'--db',
			'switch.db',
			'--skip-check'
		)
		rmSync(join(folder, 'switch.db'), { force: true })
		expect(code).toBe(0)
		expect(stdout).toContain('@0012345 ')
	})

	it('keeps an option value that looks like a number as typed, and refuses an option given twice', async () => {
		const simulator = await run('simulator', '--port', '99999', '--port', '1')
		expect(simulator.code).toBe(2)
		expect(simulator.stderr).toContain('--port given more than once')
		// --out 007 wrote to the file 7 (and an all-digit --token or --api-key lost digits).
		const { code, stderr } = await run(
			'collect',
			'tag',
			'sunset',
			'--demo',
			'--limit',
			'1',
			'--db',
			'typed.db',
			'--out',
			'007'
		)
		expect(stderr).toContain('-> 007')
		expect(code).toBe(0)
		expect(readFileSync(join(folder, '007'), 'utf8')).toContain('"pk"')
		for (const file of ['007', 'typed.db', 'typed.db-wal', 'typed.db-shm'])
			rmSync(join(folder, file), { force: true })
	})

	it('takes `help` and `help COMMAND` as --help', async () => {
		const all = await run('help')
		expect(all.code).toBe(0)
		expect(all.stdout).toContain('Commands:')
		const collect = await run('help', 'collect')
		expect(collect.code).toBe(0)
		expect(collect.stdout).toContain('$ smkit collect <kind> <target>')
		// A command's help says what it does and shows how it is used, not only its options.
		expect(collect.stdout).toContain('Collect a whole list into the store: followers, following')
		expect(collect.stdout).toContain('$ smkit collect followers mega.travel --out followers.jsonl')
		const watch = await run('watch', '--help')
		expect(watch.stdout).toContain(
			'$ smkit watch add USERNAME|#TAG | list | show ID | run [ID...] | diff ID | remove ID'
		)
		expect(watch.stdout).toContain("$ smkit watch add '#sunset' --every 6h")
	})

	it('names an unknown option as it was typed, not in camelCase', async () => {
		const { code, stderr } = await run('playground', '--api-key', 'x')
		expect(code).toBe(2)
		expect(stderr).toContain("unknown option '--api-key'")
		// One close to an option of the command names it.
		const typo = await run('collect', 'followers', 'luna.explorer', '--limt', '5')
		expect(typo.code).toBe(2)
		expect(typo.stderr).toStartWith("smkit: unknown option '--limt' (did you mean '--limit'?)\n")
	})

	it('takes a hyphenated switch before a word (--skip-check luna.explorer) as on', async () => {
		const added = await run(
			'watch',
			'add',
			'--skip-check',
			'luna.explorer',
			'--db',
			'switch.db',
			'--env',
			'none.env'
		)
		expect(added.stderr).toBe('')
		expect(added.code).toBe(0)
		expect(added.stdout).toContain('Watch 1: @luna.explorer every 1d')
	})

	it('names an unknown option given without a command', async () => {
		const { code, stderr, stdout } = await run('--demo')
		expect(code).toBe(2)
		expect(stderr).toContain("unknown option '--demo'")
		expect(stdout).toContain('Commands:')
	})
})

describe('smkit playground --demo from an empty folder', () => {
	let child: ReturnType<typeof Bun.spawn>
	let base: string

	beforeAll(async () => {
		const port = freePort()
		base = `http://127.0.0.1:${port}`
		child = Bun.spawn([binary, 'playground', '--demo', '--port', String(port)], {
			cwd: folder,
			stdout: 'pipe',
			stderr: 'pipe'
		})
		expect(await waitForOk(`${base}/api/status`)).toBe(true)
	}, 30_000)
	afterAll(async () => {
		child.kill('SIGTERM')
		expect(await child.exited).toBe(0)
	})

	it('reports demo mode and a ready client', async () => {
		const body = await (await fetch(`${base}/api/status`)).json()
		expect(body.success).toBe(true)
		expect(body.data.demo).toBe(true)
		expect(body.data.logged_in).toBe(true)
	})

	it('serves real simulator data with exact 19-digit media ids', async () => {
		const text = await (await fetch(`${base}/api/media/info/3842790443716764595`)).text()
		expect(text).toContain('"pk":"3842790443716764595"')
		expect(JSON.parse(text).data.code).toBe('DVUVYxwAOOz')
	})

	it('enforces query bounds exactly as the source build does', async () => {
		for (const count of ['0', '201', '999', 'abc']) {
			const response = await fetch(`${base}/api/feed/user/1000000002?count=${count}`)
			expect(response.status).toBe(400)
			expect((await response.json()).code).toBe('bad_request')
		}
		const response = await fetch(`${base}/api/feed/user/1000000002?count=3`)
		expect((await response.json()).data).toHaveLength(3)
	})

	it('serves the UI page and the offline API reference from inside the binary', async () => {
		const page = await fetch(`${base}/`)
		expect(page.status).toBe(200)
		expect(page.headers.get('content-type')).toContain('text/html')
		// The page's own script and stylesheet come out of the binary too.
		const html = await page.text()
		const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((match) => match[1])
		expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true)
		expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true)
		for (const asset of assets) expect((await fetch(`${base}${asset}`)).status).toBe(200)
		const reference = await (await fetch(`${base}/openapi`)).text()
		expect(reference).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z0-9.-]+\.[a-z]{2,}\/[^"']*\.js/i)
	})

	it("the API reference's server address is this playground's (not 127.0.0.1:8877)", async () => {
		const document = await (await fetch(`${base}/openapi/json`)).json()
		const { host, port } = document.servers[0].variables
		expect(`http://${host.default}:${port.default}`).toBe(base)
	})

	it('answers unknown routes with a 404 envelope', async () => {
		const response = await fetch(`${base}/api/nope`)
		expect(response.status).toBe(404)
		expect(await response.json()).toMatchObject({ success: false, code: 'not_found' })
	})
})

describe('smkit simulator', () => {
	it('refuses a request without the session cookie with login_required', async () => {
		const port = freePort()
		const child = Bun.spawn([binary, 'simulator', '--port', String(port)], {
			cwd: folder,
			stdout: 'pipe',
			stderr: 'pipe'
		})
		try {
			const url = `http://127.0.0.1:${port}`
			let response: Response | undefined
			for (let attempt = 0; attempt < 200 && !response; attempt++) {
				response = await fetch(`${url}/api/v1/feed/user/1000000002/`).catch(() => undefined)
				if (!response) await Bun.sleep(50)
			}
			expect(response?.status).toBe(403)
			expect(await response?.json()).toEqual({
				message: 'login_required',
				require_login: true,
				status: 'fail'
			})
		} finally {
			child.kill('SIGTERM')
			await child.exited
		}
	})
})
