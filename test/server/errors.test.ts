import { describe, expect, it } from 'bun:test'
import { IgApiError, IgError } from '../../src/client/errors'
import { HttpError } from '../../src/server/envelope'
import { NOT_LOGGED_IN_MESSAGE, toFailure } from '../../src/server/errors'
import { redactSecrets } from '../../src/server/redact'

describe('redactSecrets', () => {
	it('removes cookies, tokens, key-like values, provider keys and the values it is given', () => {
		const text = [
			'cookie: sessionid=abc123; csrftoken=def456; ds_user_id=42',
			'Authorization: Bearer tok-999',
			'GET /api/status?token=secret-token&x=1',
			'{"api_key": "k-1234567"}',
			'Incorrect API key provided: sk-ab***yz12',
			'the proxy password is hunter22',
			'a cabin'
		].join('\n')
		const clean = redactSecrets(text, ['hunter22', 'ab'])
		for (const secret of [
			'abc123',
			'def456',
			'=42',
			'tok-999',
			'secret-token',
			'k-1234567',
			'sk-ab',
			'hunter22'
		])
			expect(clean).not.toContain(secret)
		expect(clean).toContain('the proxy password is [redacted]')
		// Values under 4 characters are not treated as secrets (they would blank ordinary words).
		expect(clean).toContain('a cabin')
	})
})

describe('toFailure: one error mapping for both servers', () => {
	const context = (lines: string[]) => ({ server: 'test-server', log: (line: string) => lines.push(line) })

	it('keeps the code of an error raised on purpose and of a client error', () => {
		expect(toFailure(new HttpError('payload_too_large', 'Too big'), 'UNKNOWN', context([]))).toMatchObject({
			status: 413,
			body: { success: false, code: 'payload_too_large', error: 'Too big' }
		})
		const limited = new IgApiError('rate_limited', 'Slow down', { upstreamStatus: 429, retryAfter: 12.2 })
		expect(toFailure(limited, 'UNKNOWN', context([]))).toMatchObject({
			status: 429,
			headers: { 'retry-after': '13' }
		})
		const loggedOut = new IgError('login_required', 'Instagram says log in')
		expect(toFailure(loggedOut, 'UNKNOWN', { ...context([]), loggedIn: false }).body.error).toBe(
			NOT_LOGGED_IN_MESSAGE
		)
	})

	it('an unexpected error is a 500 saying nothing; the redacted detail goes to the log with the server name', () => {
		const lines: string[] = []
		const failure = toFailure(new Error('boom with sessionid=abc123'), 'UNKNOWN', {
			...context(lines),
			request: 'GET /x'
		})
		expect(failure).toMatchObject({
			status: 500,
			body: { code: 'internal_error', error: 'Internal server error' }
		})
		expect(lines).toHaveLength(1)
		expect(lines[0]).toStartWith('[test-server] GET /x failed: Error: boom with sessionid=[redacted]')
		expect(lines[0]).not.toContain('abc123')
	})

	it("logs an upstream failure quoting Instagram's message without its control characters", () => {
		const lines: string[] = []
		const message = 'Instagram server error: \u001b]0;PWNED\u0007\u001b[2J (HTTP 500 from GET /x)'
		toFailure(new IgApiError('upstream_error', message, { upstreamStatus: 500 }), 'UNKNOWN', {
			...context(lines),
			request: 'GET /x'
		})
		toFailure(new Error(`boom ${message}`), 'UNKNOWN', context(lines))
		expect(lines).toHaveLength(2)
		for (const line of lines) {
			expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
			expect(line).toContain('\\x1b]0;PWNED\\x07\\x1b[2J')
		}
	})

	it('maps malformed JSON and unknown routes', () => {
		expect(toFailure(new Error('x'), 'PARSE', context([])).body).toMatchObject({
			code: 'bad_request',
			error: 'Request body is not valid JSON'
		})
		expect(toFailure(new Error('x'), 'NOT_FOUND', context([])).status).toBe(404)
	})
})
