import { describe, expect, it } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { UsageError } from '../../src/cli-error'
import { parsePlaygroundOptions, startPlaygroundServer } from '../../src/playground/serve'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'

describe('parsePlaygroundOptions', () => {
	it('applies the defaults', () => {
		expect(parsePlaygroundOptions({})).toEqual({
			port: 8877,
			host: '127.0.0.1',
			envPath: '.env',
			demo: false,
			permission: 'ask_once',
			savedDir: 'demo/saved',
			dbPath: 'demo/smkit.db',
			token: undefined,
			corsOrigin: undefined,
			proxy: undefined,
			proxyFile: undefined,
			proxyMode: undefined,
			speed: undefined
		})
	})

	it.each([
		['port abc', { port: 'abc' }, /--port/],
		['port 70000', { port: 70000 }, /--port/],
		['port -1', { port: -1 }, /--port/],
		['port 80.5', { port: 80.5 }, /--port/],
		['permission yolo', { permission: 'yolo' }, /--permission/],
		['host a b', { host: 'a b' }, /--host/],
		['corsOrigin not a url', { corsOrigin: 'not a url' }, /--cors-origin/],
		['token short', { token: 'short' }, /--token/],
		['speed turbo', { speed: 'turbo' }, /--speed must be safe, normal, fast or unlimited/],
		['proxy mode random', { proxyMode: 'random' }, /--proxy-mode/]
	])('rejects %s as bad usage (exit code 2)', (_label, raw, message) => {
		let thrown: unknown
		try {
			parsePlaygroundOptions(raw)
		} catch (error) {
			thrown = error
		}
		expect(thrown).toBeInstanceOf(UsageError)
		expect((thrown as UsageError).exitCode).toBe(2)
		expect((thrown as Error).message).toMatch(message)
	})
})

describe('startPlaygroundServer', () => {
	it('--demo: serves the simulator data over HTTP and prints the URL, "Demo data" and the demo username', async () => {
		const savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-serve-'))
		const lines: string[] = []
		const options = parsePlaygroundOptions({
			port: 0,
			demo: true,
			savedDir,
			env: path.join(savedDir, 'none.env'),
			db: path.join(savedDir, 'smkit.db')
		})
		const running = await startPlaygroundServer(options, {}, (line) => lines.push(line))
		try {
			expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
			const status = await (await fetch(`${running.url}api/status`)).json()
			expect(status.data).toMatchObject({ demo: true, logged_in: true })
			const profile = await (await fetch(`${running.url}api/users/username/luna.explorer`)).json()
			expect(profile.data.username).toBe('luna.explorer')
			// The Host check knows the real port, even though port 0 was asked for.
			const port = new URL(running.url).port
			const wrongPort = await fetch(`${running.url}api/status`, {
				headers: { host: `127.0.0.1:${Number(port) + 1}` }
			})
			expect(wrongPort.status).toBe(403)
			const output = lines.join('\n')
			expect(output).toContain(running.url)
			expect(output).toContain('Demo data')
			expect(output).toContain('@smkit_demo')
			expect(output).toContain('AI chat: off')
			expect(output).not.toContain(DEMO_CREDENTIALS.sessionId)
			expect(output).not.toContain(DEMO_CREDENTIALS.csrfToken)
		} finally {
			await running.stop()
			await rm(savedDir, { recursive: true, force: true })
		}
	})

	/** Starts a demo playground whose environment file holds `contents`; resolves to its start-up lines. */
	async function startupLines(contents: string): Promise<string[]> {
		const directory = await mkdtemp(path.join(tmpdir(), 'smkit-serve-'))
		const envPath = path.join(directory, 'test.env')
		await writeFile(envPath, contents)
		const lines: string[] = []
		const options = parsePlaygroundOptions({
			port: 0,
			demo: true,
			env: envPath,
			savedDir: directory,
			db: path.join(directory, 'smkit.db')
		})
		const running = await startPlaygroundServer(options, {}, (line) => lines.push(line))
		await running.stop()
		await rm(directory, { recursive: true, force: true })
		return lines
	}

	it('AI chat off because of a malformed OPENAI_BASE_URL: the start-up line names the variable, not the key to set', async () => {
		const lines = await startupLines(
			'OPENAI_API_KEY=sk-serve-test-secret\nOPENAI_BASE_URL=localhost:8000/v1\n'
		)
		const line = lines.find((text) => text.startsWith('AI chat:')) ?? ''
		expect(line).toStartWith('AI chat: off')
		expect(line).toContain('OPENAI_BASE_URL')
		expect(line).not.toContain('set an AI provider key')
		expect(lines.join('\n')).not.toContain('sk-serve-test-secret')
	})

	it('an environment file pointing the model at another server: the start-up line says its host, never the key', async () => {
		const lines = await startupLines(
			'OPENAI_API_KEY=sk-serve-test-secret\nOPENAI_BASE_URL=http://user:pw@127.0.0.1:9/v1\n'
		)
		expect(lines).toContain('AI chat: openai (auto) at 127.0.0.1:9')
		expect(lines.join('\n')).not.toContain('sk-serve-test-secret')
		expect(lines.join('\n')).not.toContain('pw@')
	})

	it('without credentials: says how to log in; with --token: requests need it and it is not printed', async () => {
		const directory = await mkdtemp(path.join(tmpdir(), 'smkit-serve-'))
		const envPath = path.join(directory, 'test.env')
		await writeFile(envPath, 'SOMETHING_ELSE=1\n')
		const lines: string[] = []
		const options = parsePlaygroundOptions({
			port: 0,
			env: envPath,
			savedDir: directory,
			db: path.join(directory, 'smkit.db'),
			token: 'serve-test-token'
		})
		const running = await startPlaygroundServer(options, {}, (line) => lines.push(line))
		try {
			expect(lines.join('\n')).toContain(
				'Instagram: not logged in: run smkit login --cookies cookies.txt, use Connect account in the page, or start with --demo'
			)
			expect(lines.join('\n')).not.toContain('serve-test-token')
			expect((await fetch(`${running.url}api/status`)).status).toBe(403)
			const allowed = await fetch(`${running.url}api/status`, {
				headers: { authorization: 'Bearer serve-test-token' }
			})
			expect((await allowed.json()).data.logged_in).toBe(false)
		} finally {
			await running.stop()
			await rm(directory, { recursive: true, force: true })
		}
	})

	it('reports a port in use as an error naming the port', async () => {
		const blocker = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('busy') })
		try {
			const options = parsePlaygroundOptions({
				port: blocker.port,
				env: '/nonexistent/.env',
				db: ':memory:'
			})
			await expect(startPlaygroundServer(options, {}, () => {})).rejects.toThrow(String(blocker.port))
		} finally {
			blocker.stop(true)
		}
	})
})
