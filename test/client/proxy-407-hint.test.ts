/**
 * A proxy answering 407 to a URL without credentials says how to give them, and its example
 * (`http://USER:PASSWORD@host:port`) survives the redaction every message passes through, while
 * real proxy credentials are still redacted.
 */
import { afterAll, expect, test } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { ProxyPool } from '../../src/client/proxy'
import { redactSecrets } from '../../src/client/redact'
import { redactSecrets as redactForServers } from '../../src/server/redact'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startSimulator } from '../../src/simulator/server'
import { startTestProxy } from '../support/proxy'

const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
const proxy = startTestProxy({ credentials: { user: 'pu', password: 'PR0XY-SECRET' } })
afterAll(async () => {
	await proxy.stop()
	await simulator.stop()
})

const through = (url: string) =>
	new InstagramClient({
		baseURL: simulator.url,
		credentials: { ...DEMO_CREDENTIALS },
		proxies: new ProxyPool({ urls: [url] }),
		rateLimits: false,
		maxRetries: 0
	})

test('the 407 hint shows its example whole, through the client and the servers', async () => {
	const bare = proxy.url.replace('pu:PR0XY-SECRET@', '')
	const failure = (await through(bare)
		.users.getByUsername('luna.explorer')
		.catch((error) => error)) as Error
	expect(failure.message).toContain(
		'the proxy asks for credentials (HTTP 407): give them in its URL, http://USER:PASSWORD@host:port'
	)
	expect(redactForServers(failure.message)).toContain('http://USER:PASSWORD@host:port')
})

test('real credentials stay redacted, even when written like the example', async () => {
	const wrong = proxy.url.replace('PR0XY-SECRET', 'WR0NG-SECRET')
	const refused = (await through(wrong)
		.users.getByUsername('luna.explorer')
		.catch((error) => error)) as Error
	expect(refused.message).toContain('the proxy refused its credentials (HTTP 407)')
	expect(refused.message).not.toContain('WR0NG-SECRET')
	expect(redactSecrets('via http://pu:PR0XY-SECRET@host:1 and http://user:password@host:2', [])).toBe(
		'via http://[redacted]@host:1 and http://[redacted]@host:2'
	)
	// The placeholder spelled by a real proxy: its password is a known secret, redacted first.
	expect(redactSecrets('http://USER:PASSWORD@host:3', ['PASSWORD'])).toBe('http://[redacted]@host:3')
})
