import { afterAll, describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { IgNetworkError } from '../../src/client/errors'
import {
	bypassesProxy,
	fetchThroughProxies,
	ProxyPool,
	redactProxyUrl,
	validateProxyUrl
} from '../../src/client/proxy'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { startSimulator } from '../../src/simulator/server'
import { deadProxyUrl, startTestProxy, type TestProxy } from '../support/proxy'

const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
const proxies: TestProxy[] = []
afterAll(async () => {
	await Promise.all(proxies.map((proxy) => proxy.stop()))
	await simulator.stop()
})

function proxy(options?: Parameters<typeof startTestProxy>[0]): TestProxy {
	const started = startTestProxy(options)
	proxies.push(started)
	return started
}

const clientThrough = (pool: ProxyPool) =>
	new InstagramClient({
		baseURL: simulator.url,
		credentials: { ...DEMO_CREDENTIALS },
		rateLimits: false,
		retryBaseDelayMs: 1,
		proxies: pool
	})

describe('proxy settings', () => {
	it('accepts http and https proxies and refuses socks with a reason, never echoing credentials', () => {
		expect(validateProxyUrl(' http://user:pw@127.0.0.1:8080 ')).toBe('http://user:pw@127.0.0.1:8080')
		expect(validateProxyUrl('https://proxy.example:443')).toBe('https://proxy.example:443')
		expect(() => validateProxyUrl('socks5://user:secret@127.0.0.1:1080')).toThrow(
			"socks5://[redacted]@127.0.0.1:1080: socks5 proxies are not supported (Bun's fetch speaks http:// and https:// proxies only)"
		)
		for (const bad of ['ftp://host', 'not a url', 'user:secret@host:1'])
			expect(() => validateProxyUrl(bad)).not.toThrow(/secret/)
		expect(() => validateProxyUrl('ftp://host')).toThrow('a proxy must be an http:// or https:// URL')
	})

	it('redacts credentials in labels', () => {
		expect(redactProxyUrl('http://user:secret@127.0.0.1:8080/')).toBe('http://[redacted]@127.0.0.1:8080')
		expect(redactProxyUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080')
		expect(redactProxyUrl('secret garbage')).toBe('[redacted proxy]')
		// Without its scheme the user name would parse as one (`alice:`) and be shown.
		expect(redactProxyUrl('alice:secret@127.0.0.1:8080')).toBe('[redacted proxy]')
	})

	it('refuses a URL whose password holds an unescaped # / ? or @, showing nothing after its scheme', () => {
		// `#` starts a fragment: this parses as user `u5r`, password `p`, host `s5` (the password's rest).
		for (const url of [
			'http://u5r:p@S5#w0rd@h0st:8080',
			'http://u5r:8/S5@h0st:8080',
			'https://u5r:8?S5@h0st:8080',
			'http://u5r:pa@S5/w0rd@h0st:8080'
		]) {
			const scheme = url.slice(0, url.indexOf(':'))
			expect({ url, shown: redactProxyUrl(url) }).toEqual({ url, shown: `${scheme}://[redacted]` })
			const refusal = (() => {
				try {
					validateProxyUrl(url)
				} catch (error) {
					return (error as Error).message
				}
				return 'accepted'
			})()
			expect(refusal).toStartWith(`${redactProxyUrl(url)}: cannot be read as a proxy URL`)
			expect(refusal).toContain('percent-encoded (%2F %3F %23 %25 %40 %20)')
			expect(refusal).not.toMatch(/u5r|s5|w0rd|h0st/i)
			expect(() => new ProxyPool({ urls: [url] })).toThrow('cannot be read as a proxy URL')
		}
		// Cut at a `/` before any host can be read: refused the same way.
		expect(() => validateProxyUrl('http://u5r:p/S5@h0st:8080')).toThrow(
			'http://[redacted]: cannot be read as a proxy URL'
		)
		// White space or a % that starts no escape: no URL holds them, and nothing of it is shown.
		for (const url of [
			'http://u5r:s3cret%ZZw0rd@h0st:8080',
			'http://u5r:s3cret w0rd@h0st:8080',
			'http://u 5r:w0rd@h0st:8080'
		])
			expect(() => validateProxyUrl(url)).toThrow('http://[redacted]: cannot be read as a proxy URL')
		// Without credentials it is shown, and the message does not blame a password.
		for (const url of ['http://127.0.0.1:9899/path', 'http://127.0.0.1:99999'])
			expect(() => validateProxyUrl(url)).toThrow(
				`${url}: cannot be read as a proxy URL, which is http://host:port (a user name and password before the host if any), with nothing after the port`
			)
		// Percent-encoded, the same password is read whole; a trailing slash is no path.
		expect(validateProxyUrl('http://usr:p%40ss%23w0rd@host:8080/')).toBe(
			'http://usr:p%40ss%23w0rd@host:8080/'
		)
		expect(redactProxyUrl('http://usr:p%40ss%23w0rd@host:8080/')).toBe('http://[redacted]@host:8080')
	})

	it('redacts a proxy password anywhere, but a plain-word user name only inside a URL', () => {
		const ig = new InstagramClient({ proxies: new ProxyPool({ urls: ['http://user:pr0xy-pw@127.0.0.1:1'] }) })
		// The user name `user` must not mangle data (`username`) or messages (`/users/`) handed to the agent.
		expect(ig.transport.redact('{"username":"luna"} GET /api/v1/users/x pr0xy-pw')).toBe(
			'{"username":"luna"} GET /api/v1/users/x [redacted]'
		)
		expect(ig.transport.redact('through http://user:pr0xy-pw@127.0.0.1:1')).toBe(
			'through http://[redacted]@127.0.0.1:1'
		)
	})

	it('bypasses hosts named by NO_PROXY', () => {
		const target = new URL('https://www.instagram.com/api/v1/')
		expect(bypassesProxy(target, undefined)).toBe(false)
		expect(bypassesProxy(target, 'localhost, .instagram.com')).toBe(true)
		expect(bypassesProxy(target, 'instagram.com')).toBe(true)
		expect(bypassesProxy(target, '*')).toBe(true)
		expect(bypassesProxy(target, 'instagram.com:8080')).toBe(false)
		expect(bypassesProxy(target, 'gram.com,example.org')).toBe(false)
		expect(bypassesProxy(new URL('http://127.0.0.1:3000/'), '127.0.0.1:3000')).toBe(true)
	})

	it('rotates, sticks, and takes a failing proxy out for the cool-down', () => {
		const target = new URL('https://www.instagram.com/')
		const urls = ['http://127.0.0.1:1', 'http://127.0.0.1:2', 'http://127.0.0.1:3']
		const rotate = new ProxyPool({ urls, failureLimit: 2, cooldownMs: 1000 })
		expect([1, 2, 3, 4].map(() => rotate.pick(target, new Set(), 0)?.url)).toEqual([...urls, urls[0]])
		const first = rotate.pick(target, new Set(), 0)
		if (!first) throw new Error('no proxy')
		expect(first.url).toBe(urls[1] as string)
		rotate.recordFailure(first, 0)
		expect(rotate.figures(0)[1]?.available).toBe(true)
		rotate.recordFailure(first, 0)
		expect(rotate.figures(0)[1]).toEqual({
			url: urls[1] as string,
			requests: 2,
			failures: 2,
			available: false
		})
		expect([1, 2, 3, 4].map(() => rotate.pick(target, new Set(), 10)?.url)).not.toContain(urls[1])
		expect(rotate.figures(1001)[1]?.available).toBe(true)

		const sticky = new ProxyPool({ urls, mode: 'sticky', failureLimit: 1 })
		const chosen = sticky.pick(target)
		expect([1, 2, 3].map(() => sticky.pick(target))).toEqual([chosen, chosen, chosen])
		if (chosen) sticky.recordFailure(chosen)
		const next = sticky.pick(target)
		expect(next).not.toBe(chosen)
		expect([1, 2].map(() => sticky.pick(target))).toEqual([next, next])

		// Every proxy out: the one back first is used rather than going out directly.
		const allOut = new ProxyPool({ urls: urls.slice(0, 2), failureLimit: 1, cooldownMs: 1000 })
		const [a, b] = [allOut.pick(target, new Set(), 0), allOut.pick(target, new Set(), 0)]
		if (a && b) {
			allOut.recordFailure(a, 5)
			allOut.recordFailure(b, 0)
		}
		expect(allOut.pick(target, new Set(), 10)).toBe(b)
		expect(new ProxyPool({ urls, noProxy: 'www.instagram.com' }).pick(target)).toBeUndefined()
	})
})

describe('requests through proxies', () => {
	it('sends every upstream request of a client through the proxy, credentials included', async () => {
		const only = proxy({ credentials: { user: 'tester', password: 's3cr3t:pw' } })
		const ig = clientThrough(new ProxyPool({ urls: [only.url] }))
		await ig.checkSession()
		await ig.public.getProfile('luna.explorer')
		await ig.feed.getUserFeed((await ig.users.getByUsername('luna.explorer')).pk, { count: 3 })
		const direct = simulator.requests.records().slice(-only.count)
		expect(only.count).toBeGreaterThanOrEqual(5)
		expect(ig.stats.snapshot().requests).toBe(only.count)
		expect(only.requests.map((entry) => new URL(entry.url).pathname)).toEqual(
			direct.map((entry) => entry.path)
		)
		expect(new Set(only.requests.map((entry) => entry.authorization))).toEqual(
			new Set([`Basic ${btoa('tester:s3cr3t:pw')}`])
		)
	})

	it('gives each of three rotating proxies a share', async () => {
		const three = [proxy(), proxy(), proxy()]
		const ig = clientThrough(new ProxyPool({ urls: three.map((entry) => entry.url), mode: 'rotate' }))
		for (let index = 0; index < 9; index++) await ig.public.getProfile('luna.explorer')
		expect(three.map((entry) => entry.count)).toEqual([3, 3, 3])
	})

	it('skips a dead proxy: the request succeeds through the next one and the dead one is taken out', async () => {
		const alive = proxy()
		const pool = new ProxyPool({ urls: [deadProxyUrl(), alive.url], failureLimit: 2 })
		const ig = clientThrough(pool)
		for (let index = 0; index < 4; index++) expect((await ig.account.getBlockedUsers()).items).toBeArray()
		// POSTs fail over too when the dead proxy refused the connection (nothing was sent).
		const user = await ig.users.getByUsername('luna.explorer')
		await ig.friendships.follow(user.pk)
		const [dead, live] = pool.figures()
		expect(dead).toMatchObject({ failures: 2, available: false })
		expect(live?.available).toBe(true)
		expect(alive.count).toBe(live?.requests as number)
	})

	it("a request smkit sends direct never takes the process's HTTP_PROXY (Bun's fetch would apply it)", async () => {
		// The shell's proxy: it only counts what reaches it.
		let reached = 0
		const shell = Bun.serve({
			port: 0,
			hostname: '127.0.0.1',
			fetch: () => {
				reached++
				return new Response('from the proxy')
			}
		})
		const saved = process.env.HTTP_PROXY
		process.env.HTTP_PROXY = `http://127.0.0.1:${shell.port}`
		try {
			// No proxies at all, and a pool whose NO_PROXY names the simulator: both go direct.
			const plain = new InstagramClient({
				baseURL: simulator.url,
				credentials: { ...DEMO_CREDENTIALS },
				rateLimits: false,
				delays: false
			})
			await plain.users.getByUsername('luna.explorer')
			const bypassed = clientThrough(new ProxyPool({ urls: [proxy().url], noProxy: '127.0.0.1' }))
			await bypassed.users.getByUsername('luna.explorer')
			// Media files the same way (the jobs' downloads).
			const picture = `${simulator.url}/__sim/img/u/1000000002.svg?s=150`
			for (const pool of [undefined, new ProxyPool({ urls: [proxy().url], noProxy: '127.0.0.1' })])
				expect((await fetchThroughProxies(pool)(picture)).status).toBe(200)
			expect(reached).toBe(0)
			// The check above means something: without smkit's choice, Bun's fetch takes HTTP_PROXY.
			expect(await (await fetch(picture)).text()).toBe('from the proxy')
			expect(reached).toBe(1)
		} finally {
			if (saved === undefined) delete process.env.HTTP_PROXY
			else process.env.HTTP_PROXY = saved
			shell.stop(true)
		}
	})

	it('fails with a redacted message when no proxy can carry the request', async () => {
		const ig = clientThrough(new ProxyPool({ urls: ['http://user:hunter22@127.0.0.1:1', deadProxyUrl()] }))
		const failure = await ig.public.getProfile('luna.explorer').catch((error) => error)
		expect(failure).toBeInstanceOf(IgNetworkError)
		expect(String(failure.message)).toContain('through the proxy')
		expect(String(failure.message)).not.toContain('hunter22')
		const refused = proxy({ credentials: { user: 'u', password: 'right-password' } })
		const wrong = refused.url.replace('right-password', 'wrong-password')
		const denied = await clientThrough(new ProxyPool({ urls: [wrong] }))
			.public.getProfile('luna.explorer')
			.catch((error) => error)
		expect(String(denied.message)).toContain('the proxy refused its credentials (HTTP 407)')
		expect(String(denied.message)).not.toContain('wrong-password')
		const bare = refused.url.replace('u:right-password@', '')
		const unasked = await clientThrough(new ProxyPool({ urls: [bare] }))
			.public.getProfile('luna.explorer')
			.catch((error) => error)
		expect(String(unasked.message)).toContain('the proxy asks for credentials (HTTP 407)')
	})
})
