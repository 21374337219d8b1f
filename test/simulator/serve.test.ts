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
		// No line promises what follows it (a colon and nothing after: the values are not printed).
		for (const line of banner.trim().split('\n')) expect(line).not.toMatch(/:\s*$/)
		expect(banner).toContain('--demo logs them')
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

	it('a host that is not this machine is said in plain words, as the servers say it', async () => {
		const error = await runSimulator({ port: '9304', host: 'nosuchhost.invalid' }).then(
			() => new Error('listened'),
			(failure: Error) => failure
		)
		expect(error.message).toStartWith(
			'cannot listen on nosuchhost.invalid:9304: nosuchhost.invalid does not resolve to an address of this machine'
		)
		expect(error.message).not.toContain('EINVAL')
	})

	it('refuses a bad SMKIT_SIM_MEGA_FOLLOWERS at start, not at the first request', async () => {
		const before = process.env.SMKIT_SIM_MEGA_FOLLOWERS
		process.env.SMKIT_SIM_MEGA_FOLLOWERS = 'lots'
		try {
			await expect(startSimulator()).rejects.toThrow(
				"SMKIT_SIM_MEGA_FOLLOWERS must be a whole number from 1 to 200000, got 'lots'"
			)
			await expect(runSimulator({})).rejects.toBeInstanceOf(UsageError)
		} finally {
			if (before === undefined) delete process.env.SMKIT_SIM_MEGA_FOLLOWERS
			else process.env.SMKIT_SIM_MEGA_FOLLOWERS = before
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
		// Plain digits only: Number() read 0x2490 as 9360.
		for (const port of ['0x2490', '9.36e3', '+9360'])
			expect(() => parseSimulatorOptions({ port })).toThrow(
				`--port must be an integer from 0 to 65535, got '${port}'`
			)
	})
})
