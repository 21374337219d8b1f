/**
 * A browser's cookie export holding the simulator's demo session among cookies of other sites, in
 * the three forms `smkit login` reads, for tests of the session import.
 */
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'

const NEXT_YEAR = Math.floor(Date.now() / 1000) + 365 * 24 * 3600

/** A Netscape cookies.txt as browser extensions export it: the demo session plus other sites' cookies. */
export function demoCookiesTxt(): string {
	return [
		'# Netscape HTTP Cookie File',
		'# https://curl.se/docs/http-cookies.html',
		'',
		`.example.com\tTRUE\t/\tFALSE\t${NEXT_YEAR}\tsessionid\tsome-other-site`,
		`.google.com\tTRUE\t/\tTRUE\t${NEXT_YEAR}\tNID\t511=abc`,
		`.instagram.com\tTRUE\t/\tTRUE\t${NEXT_YEAR}\tcsrftoken\t${DEMO_CREDENTIALS.csrfToken}`,
		`#HttpOnly_.instagram.com\tTRUE\t/\tTRUE\t${NEXT_YEAR}\tsessionid\t${DEMO_CREDENTIALS.sessionId}`,
		`.instagram.com\tTRUE\t/\tTRUE\t${NEXT_YEAR}\tds_user_id\t${DEMO_CREDENTIALS.dsUserId}`,
		`.instagram.com\tTRUE\t/\tTRUE\t0\tdpr\t1.5`,
		`.facebook.com\tTRUE\t/\tTRUE\t${NEXT_YEAR}\tc_user\t100000`,
		''
	].join('\n')
}

/** The same session as a pasted Cookie header. */
export function demoCookieHeader(): string {
	return `Cookie: dpr=1.5; csrftoken=${DEMO_CREDENTIALS.csrfToken}; ds_user_id=${DEMO_CREDENTIALS.dsUserId}; sessionid=${DEMO_CREDENTIALS.sessionId}`
}

/** Every value of the demo session that must never be printed or answered (raw and decoded). */
export const DEMO_SECRETS = [
	DEMO_CREDENTIALS.sessionId,
	decodeURIComponent(DEMO_CREDENTIALS.sessionId),
	DEMO_CREDENTIALS.csrfToken
]
