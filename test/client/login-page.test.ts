/**
 * Only Instagram's login page itself ends a session: a page that merely links to it (a proxy's or
 * network's block page, "Sorry, this page isn't available") is an upstream_error that leaves the
 * session as it was (docs/instagram.md, "Errors").
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { classifyResponse, isLoginPage } from '../../src/client/classify'
import { InstagramClient } from '../../src/client/client'
import type { IgApiError } from '../../src/client/errors'
import { fixtureText, startUpstream } from '../support/upstream'

const UNAVAILABLE = `<!DOCTYPE html><html lang="en"><head><title>Page not found • Instagram</title></head><body>
<h2>Sorry, this page isn't available.</h2><p>The link you followed may be broken. <a href="/">Go back to Instagram.</a></p>
<nav><a href="/accounts/login/?next=%2Fapi%2Fv1%2F">Log in</a> <a href="/accounts/emailsignup/">Sign up</a></nav></body></html>`
const BLOCKED = `<html><head><title>Access denied</title></head><body><h1>This site is blocked by your network</h1>
<p>Policy: social media. <a href="https://www.instagram.com/accounts/login/">instagram.com/accounts/login</a></p></body></html>`
const CAPTIVE_PORTAL = `<html><head><title>Login</title></head><body><form method="post" action="/accounts/login/">
<input name="username"><input name="password" type="password"></form></body></html>`
const LOGIN_FORM = `<!DOCTYPE html><html><head><title>Instagram</title></head><body>
<form id="loginForm" method="post" action="/accounts/login/ajax/"><input name="username"></form></body></html>`

const kindOf = (status: number, text: string) => {
	const result = classifyResponse(
		{ status, headers: new Headers({ 'content-type': 'text/html' }), text },
		{ method: 'GET', endpoint: '/api/v1/accounts/current_user/' }
	)
	return result.ok ? 'ok' : result.error.kind
}

describe('the login page', () => {
	it('is recognised by its LoginAndSignupPage mark, its title or its form posting to the login endpoint', () => {
		for (const page of [
			fixtureText('profile_page.login_wall.html'),
			'<!DOCTYPE html><html><body class="LoginAndSignupPage">',
			'<html><head><title>Login • Instagram</title></head>',
			'<html><head><title> Log in • Instagram</title></head>',
			LOGIN_FORM
		]) {
			expect({ page, login: isLoginPage(page) }).toEqual({ page, login: true })
			expect({ page, kind: kindOf(200, page) }).toEqual({ page, kind: 'login_required' })
			expect({ page, kind: kindOf(403, page) }).toEqual({ page, kind: 'login_required' })
		}
	})

	it("is not a page that only links to it, nor another site's login page", () => {
		for (const page of [UNAVAILABLE, BLOCKED, CAPTIVE_PORTAL]) {
			expect({ page, login: isLoginPage(page) }).toEqual({ page, login: false })
			expect({ page, kind: kindOf(200, page) }).toEqual({ page, kind: 'upstream_error' })
			expect({ page, kind: kindOf(403, page) }).toEqual({ page, kind: 'upstream_error' })
		}
	})
})

describe('a client answered with a page linking to the login page', () => {
	let served = BLOCKED
	let status = 403
	const upstream = startUpstream({
		'/api/v1/web/fxcal/ig_sso_users/': () => Response.json({ status: 'ok' }),
		'/api/v1/accounts/current_user/': () =>
			Response.json({ user: { pk: '1', username: 'smkit_demo' }, status: 'ok' }),
		'/api/v1/users/blocked_list/': () =>
			new Response(served, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
	})
	afterAll(() => upstream.stop(true))

	it('fails with upstream_error (502) and keeps the session valid', async () => {
		const ig = new InstagramClient({
			baseURL: upstream.url.href,
			credentials: { sessionId: 'session-value-1', csrfToken: 'csrf-value-1', dsUserId: '1' },
			rateLimits: false,
			retryBaseDelayMs: 1
		})
		expect((await ig.checkSession()).session).toBe('valid')
		const pages: [string, number][] = [
			[BLOCKED, 403],
			[UNAVAILABLE, 200]
		]
		for (const [page, pageStatus] of pages) {
			served = page
			status = pageStatus
			const error = (await ig.account.getBlockedUsers().catch((caught: unknown) => caught)) as IgApiError
			expect({ status, kind: error.kind, session: ig.session.state }).toEqual({
				status,
				kind: 'upstream_error',
				session: 'valid'
			})
		}
	})
})
