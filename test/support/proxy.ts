/**
 * A forwarding HTTP proxy on loopback for tests: it receives absolute-form requests
 * (`GET http://127.0.0.1:PORT/path HTTP/1.1`, what fetch's `proxy` option sends for an http:// target),
 * counts and records them, and passes them on to loopback targets only. With `credentials`, a
 * request without the matching `Proxy-Authorization` is answered 407.
 */

/** One request the proxy carried. */
export interface ProxiedRequest {
	method: string
	/** Target URL as asked for. */
	url: string
	/** The Proxy-Authorization header sent, if any. */
	authorization: string | null
}

/** A running test proxy. */
export interface TestProxy {
	/** `http://127.0.0.1:PORT` (with `user:password@` when credentials are required). */
	url: string
	/** Requests carried so far. */
	readonly requests: ProxiedRequest[]
	/** How many requests it carried. */
	readonly count: number
	stop(): Promise<void>
}

const LOOPBACK_TARGET = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//

/** Starts a proxy on 127.0.0.1, port 0. */
export function startTestProxy(
	options: { credentials?: { user: string; password: string } } = {}
): TestProxy {
	const requests: ProxiedRequest[] = []
	const expected = options.credentials
		? `Basic ${btoa(`${options.credentials.user}:${options.credentials.password}`)}`
		: null
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const authorization = request.headers.get('proxy-authorization')
			if (expected && authorization !== expected)
				return new Response('Proxy authentication required', {
					status: 407,
					headers: { 'proxy-authenticate': 'Basic realm="test"' }
				})
			// Only loopback targets: this proxy must never carry a request off the machine.
			if (!LOOPBACK_TARGET.test(request.url)) return new Response('Forbidden target', { status: 403 })
			requests.push({ method: request.method, url: request.url, authorization })
			const headers = new Headers(request.headers)
			headers.delete('proxy-authorization')
			headers.delete('proxy-connection')
			const body =
				request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
			const answer = await fetch(request.url, { method: request.method, headers, body, redirect: 'manual' })
			// Re-wrapped so the body is sent as read (fetch has already decoded any compression).
			const responseHeaders = new Headers(answer.headers)
			responseHeaders.delete('content-encoding')
			responseHeaders.delete('content-length')
			return new Response(await answer.arrayBuffer(), { status: answer.status, headers: responseHeaders })
		}
	})
	const credentials = options.credentials
		? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.password)}@`
		: ''
	return {
		url: `http://${credentials}127.0.0.1:${server.port}`,
		requests,
		get count() {
			return requests.length
		},
		stop: () => server.stop(true)
	}
}

/** The URL of a proxy that is certainly down: a port that was free a moment ago. */
export function deadProxyUrl(): string {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port
	probe.stop(true)
	return `http://127.0.0.1:${port}`
}
