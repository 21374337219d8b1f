import { describe, expect, it } from 'bun:test'
import { Elysia } from 'elysia'
import { UsageError } from '../../src/cli-error'
import { jsonBody, MiB, unwrapParseError } from '../../src/server/body'
import { displayHost, PORT_IN_USE_HINT, startServer } from '../../src/server/bootstrap'
import { HttpError } from '../../src/server/envelope'
import { securityGuard } from '../../src/server/security'

/** A small app built the way both servers are: guard, body limit, errors as JSON. */
const app = (security: Parameters<typeof securityGuard>[0]) =>
	new Elysia()
		.use(securityGuard(security))
		.onError(({ error }) => {
			const cause = unwrapParseError(error)
			const status = cause instanceof HttpError ? cause.httpStatus : 500
			return new Response(JSON.stringify({ success: false, status }), { status })
		})
		.use(jsonBody({ limit: MiB }))
		.post('/api/echo', ({ body }) => ({ success: true, body }))

describe('startServer', () => {
	it('listens, prints the URL, knows its bound port and stops what it depends on', async () => {
		const lines: string[] = []
		let stopped = 0
		const running = await startServer({
			name: 'test-server',
			options: { port: 0, host: '127.0.0.1' },
			env: {},
			print: (line) => lines.push(line),
			onStop: async () => {
				stopped++
			},
			build: app
		})
		try {
			expect(lines).toEqual([`smkit test-server: ${running.url}`])
			expect(running.token).toBeUndefined()
			const echo = await fetch(`${running.url}api/echo`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{"a":1}'
			})
			expect(await echo.json()).toEqual({ success: true, body: { a: 1 } })
			// The Host check reads the port the server was bound to, though port 0 was asked for.
			const port = Number(new URL(running.url).port)
			const wrongPort = await fetch(`${running.url}api/echo`, { headers: { host: `127.0.0.1:${port + 1}` } })
			expect(wrongPort.status).toBe(403)
			// Bun's own cap stays above the app's limit, so the app answers an oversized body itself.
			const large = await fetch(`${running.url}api/echo`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: `"${'x'.repeat(3 * MiB)}"`
			})
			expect(large.status).toBe(413)
			expect(await large.json()).toEqual({ success: false, status: 413 })
		} finally {
			await running.stop()
		}
		expect(stopped).toBe(1)
	})

	it('a token from the environment is required and never printed', async () => {
		const lines: string[] = []
		const running = await startServer({
			name: 'test-server',
			options: { port: 0, host: '127.0.0.1' },
			env: { SMKIT_TOKEN: 'environment-token-1' },
			print: (line) => lines.push(line),
			build: app
		})
		try {
			expect(running.token).toBe('environment-token-1')
			expect(lines.join('\n')).toContain('Access token required')
			expect(lines.join('\n')).not.toContain('environment-token-1')
			const refused = await fetch(`${running.url}api/echo`, { method: 'POST' })
			expect(refused.status).toBe(403)
		} finally {
			await running.stop()
		}
	})

	it('a generated token is printed with where it goes: the page for a browser, or as the server says', async () => {
		for (const tokenUse of [undefined, (url: string, token: string) => `send ${token} to ${url}mcp`]) {
			const lines: string[] = []
			const running = await startServer({
				name: 'test-server',
				options: { port: 0, host: '0.0.0.0' },
				env: {},
				print: (line) => lines.push(line),
				tokenUse,
				build: app
			})
			try {
				const token = running.token as string
				expect(token.length).toBeGreaterThanOrEqual(16)
				expect(lines).toContain(
					tokenUse
						? `Access token (generated): send ${token} to ${running.url}mcp`
						: `Access token (generated): open ${running.url}?token=${token}`
				)
			} finally {
				await running.stop()
			}
		}
	})

	it('a port in use names the address and stops what the server depends on', async () => {
		const blocker = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('busy') })
		let stopped = false
		try {
			const start = startServer({
				name: 'test-server',
				options: { port: blocker.port as number, host: '127.0.0.1' },
				env: {},
				print: () => {},
				onStop: async () => {
					stopped = true
				},
				build: app
			})
			await expect(start).rejects.toThrow(
				`cannot listen on 127.0.0.1:${blocker.port}: the port is in use (${PORT_IN_USE_HINT})`
			)
			expect(stopped).toBe(true)
		} finally {
			blocker.stop(true)
		}
	})

	it('a port another smkit server listens on is in use too (no shared port)', async () => {
		const start = (port: number) =>
			startServer({
				name: 'test-server',
				options: { port, host: '127.0.0.1' },
				env: {},
				print: () => {},
				build: app
			})
		const first = await start(0)
		try {
			const port = Number(new URL(first.url).port)
			await expect(start(port)).rejects.toThrow(
				`cannot listen on 127.0.0.1:${port}: the port is in use (${PORT_IN_USE_HINT})`
			)
		} finally {
			await first.stop()
		}
	})

	it('a host that is not this machine says so, without the system error (EINVAL)', async () => {
		for (const [host, says] of [
			['nosuchhost.invalid', 'nosuchhost.invalid does not resolve to an address of this machine'],
			['192.0.2.1', '192.0.2.1 is not an address of this machine']
		]) {
			const start = startServer({
				name: 'test-server',
				options: { port: 9304, host },
				env: {},
				print: () => {},
				build: app
			})
			const error = await start.then(
				() => new Error('listened'),
				(failure: Error) => failure
			)
			expect(error.message).toStartWith(`cannot listen on ${host}:9304: ${says} (give --host`)
			expect(error.message).not.toMatch(/EINVAL|EADDRNOTAVAIL|Error:/)
		}
	})

	it.each([
		[
			{ SMKIT_READ_TIMEOUT: 'abc' },
			"SMKIT_READ_TIMEOUT must be a whole number of seconds from 1 to 255, got 'abc'"
		],
		[
			{ SMKIT_READ_TIMEOUT: '0x10' },
			"SMKIT_READ_TIMEOUT must be a whole number of seconds from 1 to 255, got '0x10'"
		],
		[
			{ SMKIT_READ_TIMEOUT: '300' },
			"SMKIT_READ_TIMEOUT must be a whole number of seconds from 1 to 255, got '300'"
		],
		[{ SMKIT_TOKEN: 'short' }, 'The access token must be at least 16 characters (--token or SMKIT_TOKEN)']
	])(
		'a bad %p is a usage error (exit 2), and what the server depends on is stopped',
		async (env, message) => {
			let stopped = false
			const start = startServer({
				name: 'test-server',
				options: { port: 0, host: '127.0.0.1' },
				env,
				print: () => {},
				onStop: async () => {
					stopped = true
				},
				build: app
			})
			const error = await start.then(
				() => new Error('listened'),
				(failure: Error) => failure
			)
			expect(error).toBeInstanceOf(UsageError)
			expect(error.message).toBe(message)
			// Left running, demo mode's simulator kept the process alive after the error.
			expect(stopped).toBe(true)
		}
	)

	it('takes a blank SMKIT_READ_TIMEOUT as unset', async () => {
		const running = await startServer({
			name: 'test-server',
			options: { port: 0, host: '127.0.0.1' },
			env: { SMKIT_READ_TIMEOUT: ' ' },
			print: () => {},
			build: app
		})
		await running.stop()
	})

	it('shows a wildcard host as the loopback address a browser here can open', () => {
		expect(displayHost('0.0.0.0')).toBe('127.0.0.1')
		expect(displayHost('::')).toBe('127.0.0.1')
		expect(displayHost('::1')).toBe('[::1]')
		expect(displayHost('localhost')).toBe('localhost')
	})
})
