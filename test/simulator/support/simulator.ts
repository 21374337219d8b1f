/** Helpers for the simulator tests: start one on port 0 and call it like a client would. */
import { expect } from 'bun:test'
import { isSafeNumber, parse } from 'lossless-json'
import { DEMO_CREDENTIALS } from '../../../src/simulator/credentials'
import { type Simulator, startSimulator } from '../../../src/simulator/server'

/** The cookie header of the demo session (csrftoken included, as clients send it). */
export const SESSION_COOKIE = `sessionid=${DEMO_CREDENTIALS.sessionId}; csrftoken=${DEMO_CREDENTIALS.csrfToken}; ds_user_id=${DEMO_CREDENTIALS.dsUserId}`

/** Starts a simulator on 127.0.0.1, port 0. */
export function startTestSimulator(seed?: number): Promise<Simulator> {
	return startSimulator({ port: 0, host: '127.0.0.1', seed })
}

/** Parses JSON keeping integers beyond 2^53 exact, as strings (a client turns ids into strings too). */
export function parseExact(text: string): any {
	return parse(text, null, (value: string) => (isSafeNumber(value) ? Number(value) : value))
}

/** A GET with the demo session. */
export function sessionGet(simulator: Simulator, path: string): Promise<Response> {
	return fetch(`${simulator.url}${path}`, { headers: { cookie: SESSION_COOKIE } })
}

/** A form POST with the demo session and the CSRF header. */
export function sessionPost(
	simulator: Simulator,
	path: string,
	form: Record<string, string> = {}
): Promise<Response> {
	return fetch(`${simulator.url}${path}`, {
		method: 'POST',
		headers: {
			cookie: SESSION_COOKIE,
			'x-csrftoken': DEMO_CREDENTIALS.csrfToken,
			'content-type': 'application/x-www-form-urlencoded'
		},
		body: new URLSearchParams(form).toString()
	})
}

/** Status and exactly parsed body of a response. */
export async function readBody(response: Response): Promise<{ status: number; body: any; text: string }> {
	const text = await response.text()
	return { status: response.status, body: parseExact(text), text }
}

/** A session GET, parsed. */
export async function getJson(simulator: Simulator, path: string) {
	return readBody(await sessionGet(simulator, path))
}

/** A session POST, parsed. */
export async function postJson(simulator: Simulator, path: string, form: Record<string, string> = {}) {
	return readBody(await sessionPost(simulator, path, form))
}

/** The GraphQL doc_id POST a logged-in client sends. */
export function docQuery(simulator: Simulator, docId: string, variables: unknown, path = '/graphql/query') {
	return postJson(simulator, path, {
		doc_id: docId,
		variables: JSON.stringify(variables),
		fb_api_caller_class: 'RelayModern',
		server_timestamps: 'true'
	})
}

/**
 * `expect(value).toMatchObject(shape)` on a copy: bun 1.4.5 replaces the received values that matched
 * an asymmetric matcher (`expect.any(Number)`) with the matcher itself, breaking later assertions.
 */
export function expectShape(value: unknown, shape: object): void {
	expect(structuredClone(value)).toMatchObject(shape)
}
