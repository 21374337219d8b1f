import { describe, expect, it } from 'bun:test'
import { classifyResponse } from '../../src/client/classify'
import type { IgApiError } from '../../src/client/errors'

const CONTEXT = { method: 'GET', endpoint: '/api/v1/users/web_profile_info/' }

function classify(status: number, body: unknown, headers: Record<string, string> = {}, context = {}) {
	const text = typeof body === 'string' ? body : JSON.stringify(body)
	return classifyResponse({ status, headers: new Headers(headers), text }, { ...CONTEXT, ...context })
}

function errorOf(status: number, body: unknown, headers: Record<string, string> = {}): IgApiError {
	const result = classify(status, body, headers)
	if (result.ok) throw new Error('expected an error')
	return result.error
}

describe('classifyResponse', () => {
	it('passes success JSON through, with big ids exact', () => {
		const result = classify(200, '{"items":[{"pk":3842790443716764595}],"status":"ok"}')
		expect(result).toEqual({ ok: true, data: { items: [{ pk: '3842790443716764595' }], status: 'ok' } })
	})

	const cases: [string, number, unknown, Record<string, string>, string][] = [
		[
			'429',
			429,
			{ message: 'Please wait a few minutes before you try again.', status: 'fail' },
			{},
			'rate_limited'
		],
		['401', 401, { message: 'unauthorized' }, {}, 'login_required'],
		['404', 404, { message: 'User not found', status: 'fail' }, {}, 'not_found'],
		[
			'a redirect to the login page',
			302,
			'',
			{ location: 'https://www.instagram.com/accounts/login/?next=/' },
			'login_required'
		],
		['a redirect ending in /#', 302, '', { location: 'https://www.instagram.com/#' }, 'login_required'],
		['a redirect without location', 301, '', {}, 'login_required'],
		[
			'require_login on 403',
			403,
			{ message: 'login_required', require_login: true, status: 'fail' },
			{},
			'login_required'
		],
		[
			'login_required message on 200',
			200,
			{ message: 'login_required', status: 'fail' },
			{},
			'login_required'
		],
		[
			'a checkpoint',
			400,
			{
				message: 'checkpoint_required',
				checkpoint_url: 'https://i.instagram.com/challenge/1/',
				status: 'fail'
			},
			{},
			'challenge_required'
		],
		[
			'consent',
			400,
			{ message: 'consent_required', consent_required: true, status: 'fail' },
			{},
			'challenge_required'
		],
		[
			'spam',
			400,
			{ spam: true, feedback_message: 'We limit how often you can do certain things', status: 'fail' },
			{},
			'rate_limited'
		],
		[
			'"Not authorized to view user"',
			400,
			{ message: 'Not authorized to view user', status: 'fail' },
			{},
			'private_account'
		],
		[
			'"Please wait a few minutes" on 400',
			400,
			{ message: 'Please wait a few minutes before you try again.', status: 'fail' },
			{},
			'rate_limited'
		],
		[
			'a "not found" message on 400',
			400,
			{ message: 'Media not found or unavailable', status: 'fail' },
			{},
			'not_found'
		],
		// Instagram's refusal, not a value of the API's caller: 502, never our own 400 bad_request.
		['an unknown 400 message', 400, { message: 'Invalid parameter', status: 'fail' }, {}, 'upstream_error'],
		['an unknown 200 fail', 200, { message: 'Something odd', status: 'fail' }, {}, 'upstream_error'],
		['500', 500, 'Internal error', {}, 'upstream_error'],
		['503 JSON', 503, { message: 'unavailable' }, {}, 'upstream_error'],
		['an HTML 403 naming login_required', 403, '<html>login_required</html>', {}, 'login_required'],
		['a 200 login page', 200, '<!DOCTYPE html><html><body class="LoginAndSignupPage">', {}, 'login_required'],
		['a 200 that is not JSON', 200, '{"items": [', {}, 'upstream_error'],
		// Cut short, records with "login" in their keys are still malformed JSON, not the login page.
		[
			'a 200 cut short holding login keys',
			200,
			'{"sessions": [{"login_id": "1", "login_timestamp": 1',
			{},
			'upstream_error'
		],
		[
			'a 200 login page redirecting',
			200,
			'<html><head><title>Login • Instagram</title></head>',
			{},
			'login_required'
		]
	]
	for (const [name, status, body, headers, kind] of cases) {
		it(`maps ${name} to ${kind}`, () => {
			const error = errorOf(status, body, headers)
			expect(error.kind).toBe(kind as never)
			expect(error.upstreamStatus).toBe(status)
			expect(error.endpoint).toBe('GET /api/v1/users/web_profile_info/')
			expect(error.message).toContain('GET /api/v1/users/web_profile_info/')
		})
	}

	it('keeps the challenge URL', () => {
		const error = errorOf(400, {
			message: 'challenge_required',
			challenge: { url: 'https://www.instagram.com/challenge/abc/', api_path: '/challenge/abc/' },
			status: 'fail'
		})
		expect(error.kind).toBe('challenge_required')
		expect(error.challengeUrl).toBe('https://www.instagram.com/challenge/abc/')
	})

	it('reads Retry-After in seconds and as an HTTP date', () => {
		expect(errorOf(429, {}, { 'retry-after': '7' }).retryAfter).toBe(7)
		const inTenSeconds = new Date(Date.now() + 10_000).toUTCString()
		expect(errorOf(429, {}, { 'retry-after': inTenSeconds }).retryAfter).toBeGreaterThanOrEqual(9)
	})

	it('says "malformed JSON" for a broken 200 body', () => {
		expect(errorOf(200, '{"items": [').message).toContain('malformed JSON')
	})

	it('returns text bodies as they are when text is expected', () => {
		expect(classify(200, '<html>profile</html>', {}, { expect: 'text' })).toEqual({
			ok: true,
			data: '<html>profile</html>'
		})
	})

	it('redacts secrets that an upstream message echoes', () => {
		const result = classifyResponse(
			{
				status: 400,
				headers: new Headers(),
				text: JSON.stringify({ message: 'bad session sess-SECRET-123', status: 'fail' })
			},
			{ ...CONTEXT, secrets: ['sess-SECRET-123'] }
		)
		expect(result.ok).toBe(false)
		if (!result.ok) expect(result.error.message).not.toContain('sess-SECRET-123')
	})
})
