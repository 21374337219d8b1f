/**
 * The compiled binary against hostile connections, as an attacker on this machine sends them:
 * malformed Host headers (an envelope, never Bun's development error page with the working
 * directory and source, nor a stack trace per request in the log), half-sent requests and idle
 * connections (closed after the read deadline, so they cannot exhaust the file descriptors), and a
 * port scan that finds demo mode's in-process simulator (its control routes demand a token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary, freePort, waitForOk } from '../support/binary'
import { type HeldConnection, holdConnection, requestWithHost } from '../support/raw-http'

const malformedHosts = ['a b', '[', 'x:99999', '%', '127.0.0.1:1/x', 'a"b', '<x>', ':::', '@']
/** The read deadline the servers are started with here (seconds), to keep the test short. */
const READ_TIMEOUT = 2

let folder: string
let binary: string
/** What each started process printed, to check the logs. */
const outputs: { stdout: Promise<string>; stderr: Promise<string> }[] = []
const children: ReturnType<typeof Bun.spawn>[] = []

/** Starts the binary with `args` in the temporary folder and waits for `readyUrl`. */
async function start(args: string[], readyUrl: string, env: Record<string, string> = {}) {
	const child = Bun.spawn([binary, ...args], {
		cwd: folder,
		env: { PATH: process.env.PATH ?? '', HOME: folder, SMKIT_READ_TIMEOUT: String(READ_TIMEOUT), ...env },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	children.push(child)
	outputs.push({ stdout: new Response(child.stdout).text(), stderr: new Response(child.stderr).text() })
	expect(await waitForOk(readyUrl)).toBe(true)
	return child
}

let simulatorPort: number
let playgroundPort: number
let demoPlayground: ReturnType<typeof Bun.spawn>
let demoPort: number

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-hostile-'))
	binary = join(folder, 'smkit')
	copyFileSync(await compiledBinary(), binary)
	simulatorPort = freePort()
	await start(
		['simulator', '--port', String(simulatorPort)],
		`http://127.0.0.1:${simulatorPort}/__sim/health`
	)
	playgroundPort = freePort()
	await start(
		['playground', '--demo', '--port', String(playgroundPort), '--saved-dir', join(folder, 'saved')],
		`http://127.0.0.1:${playgroundPort}/api/status`,
		{ SMKIT_UPSTREAM_URL: `http://127.0.0.1:${simulatorPort}` }
	)
	demoPort = freePort()
	demoPlayground = await start(
		['playground', '--demo', '--port', String(demoPort), '--saved-dir', join(folder, 'saved-demo')],
		`http://127.0.0.1:${demoPort}/api/status`
	)
}, 120_000)

afterAll(async () => {
	for (const child of children) child.kill('SIGTERM')
	await Promise.all(children.map((child) => child.exited))
	rmSync(folder, { recursive: true, force: true })
})

describe('malformed Host headers', () => {
	it('get a 400 envelope from the playground, with nothing about the server inside', async () => {
		for (const host of malformedHosts) {
			const response = await requestWithHost(playgroundPort, '/api/status', host)
			expect({ host, status: response.status }).toEqual({ host, status: 400 })
			expect(response.headers.toLowerCase()).toContain('content-type: application/json')
			expect(JSON.parse(response.body)).toMatchObject({ success: false, code: 'bad_request' })
			expect(response.body).not.toContain(folder)
			expect(response.body).not.toContain('bunfallback')
		}
	})

	it('get a 400 from the simulator too', async () => {
		for (const host of malformedHosts) {
			const response = await requestWithHost(simulatorPort, '/api/v1/users/web_profile_info/', host)
			expect({ host, status: response.status }).toEqual({ host, status: 400 })
			expect(JSON.parse(response.body)).toMatchObject({ status: 'fail' })
			expect(response.body).not.toContain(folder)
		}
	})
})

/** Opens `count` connections that each sent `text` and were left waiting. */
function hold(port: number, count: number, text: string): Promise<HeldConnection[]> {
	return Promise.all(Array.from({ length: count }, () => holdConnection(port, text)))
}

describe('half-sent requests and idle connections', () => {
	it('are closed by the server after the read deadline while /api/status keeps answering', async () => {
		const held = [
			...(await hold(playgroundPort, 60, 'GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n')),
			...(await hold(
				playgroundPort,
				60,
				`POST /api/save HTTP/1.1\r\nHost: 127.0.0.1:${playgroundPort}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"na`
			)),
			...(await hold(
				playgroundPort,
				60,
				`GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${playgroundPort}\r\n\r\n`
			))
		]
		let open = held.length
		for (const connection of held) connection.closed.then(() => open--)
		const closedAll = Promise.all(held.map((connection) => connection.closed))
		const statuses: number[] = []
		const watchdog = Bun.sleep(40_000).then(() => 'timed out')
		const finished = closedAll.then(() => 'closed')
		while ((await Promise.race([finished, Bun.sleep(250).then(() => 'tick')])) === 'tick') {
			statuses.push((await fetch(`http://127.0.0.1:${playgroundPort}/api/status`)).status)
			if ((await Promise.race([watchdog, Promise.resolve('running')])) === 'timed out') break
		}
		for (const connection of held) connection.socket.destroy()
		expect(open).toBe(0)
		expect(statuses.length).toBeGreaterThan(0)
		expect(statuses.every((status) => status === 200)).toBe(true)
	}, 60_000)

	it('do not cut a request whose answer takes longer than the read deadline', async () => {
		const rule = {
			kind: 'latency',
			latencyMs: (READ_TIMEOUT + 3) * 1000,
			pathPattern: 'web_profile_info',
			times: 1
		}
		const set = await fetch(`http://127.0.0.1:${simulatorPort}/__sim/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(rule)
		})
		expect(set.status).toBe(200)
		const response = await fetch(`http://127.0.0.1:${playgroundPort}/api/users/username/luna.explorer`)
		expect(response.status).toBe(200)
		expect((await response.json()).success).toBe(true)
	}, 30_000)
})

/** TCP ports a process listens on (what a port scan of this machine finds), from /proc. */
function listeningPorts(pid: number): number[] {
	const inodes = new Set<string>()
	for (const fd of readdirSync(`/proc/${pid}/fd`)) {
		try {
			const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
			if (match) inodes.add(match[1])
		} catch {
			// Closed meanwhile.
		}
	}
	const ports: number[] = []
	for (const table of ['tcp', 'tcp6']) {
		for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
			const fields = line.trim().split(/\s+/)
			// Field 3 is the state (0A = LISTEN), field 9 the inode.
			if (fields[3] === '0A' && inodes.has(fields[9]))
				ports.push(Number.parseInt(fields[1].split(':')[1], 16))
		}
	}
	return [...new Set(ports)]
}

describe("demo mode's in-process simulator found by a port scan", () => {
	it('refuses fault injection and request-log access without the per-run token', async () => {
		const ports = listeningPorts(demoPlayground.pid).filter((port) => port !== demoPort)
		expect(ports.length).toBeGreaterThan(0)
		for (const port of ports) {
			const base = `http://127.0.0.1:${port}`
			// A same-origin-looking JSON request, the best a scanning page (or local process) can do.
			const inject = await fetch(`${base}/__sim/faults`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ kind: 'hang' })
			})
			expect(inject.status).toBe(403)
			expect((await fetch(`${base}/__sim/requests`)).status).toBe(403)
		}
		// The playground is not hung: its data still comes.
		const response = await fetch(`http://127.0.0.1:${demoPort}/api/users/username/luna.explorer`)
		expect(response.status).toBe(200)
	})
})

describe('the logs', () => {
	it('hold no stack trace or development page for the hostile requests', async () => {
		for (const child of children) child.kill('SIGTERM')
		for (const output of outputs) {
			const text = `${await output.stdout}\n${await output.stderr}`
			expect(text).not.toMatch(/^\s+at /m)
			expect(text).not.toContain('Invalid URL')
			expect(text).not.toContain('TypeError')
		}
	})
})
