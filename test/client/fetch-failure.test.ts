import { describe, expect, it } from 'bun:test'
import { IgNetworkError, IgTimeoutError } from '../../src/client/errors'
import { fetchFailure, mayFailOver } from '../../src/client/fetch-failure'

const context = {
	endpoint: 'GET /api/v1/users/1/info/',
	timeoutMs: 1500,
	timedOut: false,
	callerAborted: false,
	redact: (text: string) => text.replaceAll('SECRET', '[redacted]')
}

describe('fetch failures', () => {
	it('turns the deadline into IgTimeoutError naming the timeout, endpoint and proxy', () => {
		const cause = new Error('aborted')
		const error = fetchFailure(cause, {
			...context,
			timedOut: true,
			callerAborted: true,
			proxyLabel: 'proxy 2'
		})
		expect(error).toBeInstanceOf(IgTimeoutError)
		expect(error?.message).toBe(
			'Instagram did not answer within 1500 ms through the proxy proxy 2 (GET /api/v1/users/1/info/)'
		)
		expect(error?.endpoint).toBe(context.endpoint)
		expect(error?.cause).toBe(cause)
	})

	it("leaves the caller's own abort alone", () => {
		expect(fetchFailure(new Error('stop'), { ...context, callerAborted: true })).toBeUndefined()
	})

	it('turns anything else into IgNetworkError with the reason redacted', () => {
		const error = fetchFailure(new Error('socket closed, cookie SECRET'), context)
		expect(error).toBeInstanceOf(IgNetworkError)
		expect(error?.message).toBe(
			'Could not reach Instagram (GET /api/v1/users/1/info/): socket closed, cookie [redacted]'
		)
		expect(fetchFailure('plain text SECRET', context)?.message).toEndWith(': plain text [redacted]')
	})

	it('moves to the next proxy after a network failure when a repeat is harmless or nothing was sent', () => {
		const network = new IgNetworkError('x', {})
		const refused = Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' })
		const reset = Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })
		expect(mayFailOver(network, reset, true)).toBe(true)
		expect(mayFailOver(network, refused, false)).toBe(true)
		expect(mayFailOver(network, new Error('FailedToOpenSocket'), false)).toBe(true)
		expect(mayFailOver(network, reset, false)).toBe(false)
		expect(mayFailOver(new IgTimeoutError('x', {}), refused, true)).toBe(false)
	})
})
