import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { UsageError } from '../../src/cli-error'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { parseSimulatorOptions, runSimulator } from '../../src/simulator/serve'
import { startSimulator } from '../../src/simulator/server'

async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp): Promise<string> {
	const reader = stream.getReader()
	const decoder = new TextDecoder()
	let text = ''
	while (!pattern.test(text)) {
		const { value, done } = await reader.read()
		if (done) break
		text += decoder.decode(value)
	}
	reader.releaseLock()
	return text
}

describe('smkit simulator', () => {
	it('prints its URL, serves, keeps the session id out of its output and stops on SIGTERM', async () => {
		const child = Bun.spawn([process.execPath, join(import.meta.dir, 'support/run-simulator.ts')], {
			stdout: 'pipe',
			stderr: 'pipe'
		})
		const banner = await readUntil(child.stdout, /Ctrl-C/)
		const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1]
		expect(url).toBeDefined()
		expect(banner).not.toContain(DEMO_CREDENTIALS.sessionId)
		expect(banner).not.toContain(DEMO_CREDENTIALS.csrfToken)
		const anonymous = await fetch(`${url}/api/v1/users/1000000002/info/`)
		expect(anonymous.status).toBe(403)
		const logged = await fetch(`${url}/api/v1/users/1000000002/info/`, {
			headers: { cookie: `sessionid=${DEMO_CREDENTIALS.sessionId}` }
		})
		expect(logged.status).toBe(200)
		child.kill('SIGTERM')
		expect(await readUntil(child.stdout, /stopping the simulator/)).toContain('Received SIGTERM')
		expect(await child.exited).toBe(0)
	})

	it('refuses a port another simulator listens on, instead of sharing it', async () => {
		const first = await startSimulator()
		try {
			const port = Number(new URL(first.url).port)
			await expect(startSimulator({ port })).rejects.toThrow(/in use/)
		} finally {
			await first.stop()
		}
	})

	it('a port in use is an error naming the address and what to do', async () => {
		const blocker = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('busy') })
		try {
			await expect(runSimulator({ port: String(blocker.port) })).rejects.toThrow(
				`cannot listen on 127.0.0.1:${blocker.port}: the port is in use (stop what listens there, or choose another port with --port)`
			)
		} finally {
			blocker.stop(true)
		}
	})

	it('validates its options', () => {
		expect(parseSimulatorOptions({ port: '8123', host: 'localhost' })).toEqual({
			port: 8123,
			host: 'localhost'
		})
		expect(parseSimulatorOptions({})).toEqual({ port: 0, host: '127.0.0.1' })
		expect(() => parseSimulatorOptions({ port: 'abc' })).toThrow(UsageError)
		expect(() => parseSimulatorOptions({ port: 70000 })).toThrow(UsageError)
	})
})
