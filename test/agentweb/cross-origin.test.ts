/**
 * A page from another origin (a second local server on another port), opened in Chromium, tries
 * every way a browser lets a page post without asking the target first: no-cors `text/plain`
 * fetches, a JSON fetch (preflighted), `sendBeacon`, and a `text/plain` form post. Neither the agent
 * web server nor the playground's AI routes may run a question: the fake model receives nothing.
 * (docs/api-contract.md, "Security".) The servers did see the
 * attempts, so the test is not passing because nothing arrived.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import { blockForeignRequests, launchBrowser } from '../support/browser'
import { reply } from '../support/fake-llm'
import { type ChatHarness, startChatHarness, testApiKey } from './support'

const BROWSER_TIMEOUT = 120_000
let harness: ChatHarness
let browser: Browser
const servers: ReturnType<typeof Bun.serve>[] = []
const seen: { origin: string | null; method: string; path: string; status: number }[] = []
let attackerUrl = ''

/** Serves an app and records each request's Origin and the status it got. */
function serveRecording(fetch: (request: Request) => Response | Promise<Response>): string {
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		async fetch(request) {
			const response = await fetch(request)
			seen.push({
				origin: request.headers.get('origin'),
				method: request.method,
				path: new URL(request.url).pathname,
				status: response.status
			})
			return response
		}
	})
	servers.push(server)
	return `http://127.0.0.1:${server.port}`
}

function attackPage(targets: string[]): string {
	const body = JSON.stringify({ message: 'Follow everyone', tasks: ['Follow everyone'] })
	const script = `
const targets = ${JSON.stringify(targets)};
const body = ${JSON.stringify(body)};
const attempts = [];
for (const target of targets) {
	attempts.push(fetch(target, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body }).catch(() => {}));
	attempts.push(fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }).catch(() => {}));
	navigator.sendBeacon(target, new Blob([body], { type: 'text/plain' }));
}
const sink = document.createElement('iframe');
sink.name = 'sink';
document.body.append(sink);
let index = 0;
function nextForm() {
	if (index >= targets.length) { Promise.all(attempts).then(() => { document.title = 'sent'; }); return; }
	const form = document.createElement('form');
	form.method = 'POST';
	form.action = targets[index++];
	form.enctype = 'text/plain';
	form.target = 'sink';
	const field = document.createElement('input');
	field.name = '{"message":"Follow everyone","pad":"';
	field.value = '"}';
	form.append(field);
	document.body.append(form);
	sink.onload = nextForm;
	form.submit();
}
nextForm();
`
	return `<!doctype html><html><head><title>attacker</title></head><body><script>${script}</script></body></html>`
}

beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript(() => reply.text('I followed everyone'))
	const agentWeb = serveRecording(harness.agentWeb({ permission: 'full_access' }).fetch)
	const ai = createPlaygroundAi({
		client: harness.client,
		env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: harness.llm.url },
		permission: 'full_access',
		log: () => {}
	})
	const playground = serveRecording(createPlaygroundApp({ ig: harness.client, ai, log: () => {} }).fetch)
	const targets = [
		`${agentWeb}/api/ask`,
		`${agentWeb}/api/ask/stream`,
		`${agentWeb}/api/parallel`,
		`${playground}/api/ai/ask`,
		`${playground}/api/ai/ask/stream`
	]
	const attacker = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch: () => new Response(attackPage(targets), { headers: { 'content-type': 'text/html' } })
	})
	servers.push(attacker)
	browser = await launchBrowser()
	attackerUrl = `http://127.0.0.1:${attacker.port}/`
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	for (const server of servers) await server.stop(true)
	await harness?.stop()
}, BROWSER_TIMEOUT)

test(
	'a page from another origin cannot make either server ask the model',
	async () => {
		const context = await browser.newContext()
		await blockForeignRequests(context)
		const page = await context.newPage()
		await page.goto(attackerUrl)
		await page.waitForFunction(() => document.title === 'sent', null, { timeout: 30_000 })
		// Beacons are sent after the page moves on; give them a moment to arrive.
		const deadline = Date.now() + 3000
		while (Date.now() < deadline && seen.filter((entry) => entry.origin !== null).length < 15)
			await Bun.sleep(50)
		const attempts = seen.filter(
			(entry) => entry.method === 'POST' && entry.origin?.startsWith('http://127.0.0.1:')
		)
		// Every path was tried, and every attempt that reached a server was refused.
		expect(new Set(attempts.map((entry) => entry.path)).size).toBe(5)
		expect(attempts.length).toBeGreaterThanOrEqual(10)
		for (const attempt of attempts) expect(attempt.status).toBe(403)
		expect(harness.llm.requests).toEqual([])
		await context.close()
	},
	BROWSER_TIMEOUT
)
