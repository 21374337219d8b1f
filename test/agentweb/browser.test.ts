/**
 * The chat page in Chromium against the agent web server, the simulator and the fake model: each
 * question streams into its own bubble, approval cards decide what runs, hostile Markdown stays
 * inert, history comes back after a reload, and the page makes no request to another origin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
	blockForeignRequests,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	watchPage
} from '../support/browser'
import type { RecordedRequest } from '../support/fake-llm'
import { reply } from '../support/fake-llm'
import { type ChatHarness, gate, lastQuestion, lunaPk, startChatHarness } from './support'

const BROWSER_TIMEOUT = 120_000
const xssPk = '1000000004'

let harness: ChatHarness
let browser: Browser
let context: BrowserContext
let page: Page
let watch: PageWatch
let foreign: ForeignRequests
const servers: ReturnType<typeof Bun.serve>[] = []
let fullAccessUrl: string
let askEveryUrl: string
const held = { second: gate() }

const hostileAnswer = [
	'Here is [a trap](javascript:window.__xss=1) and [a page](https://example.com/safe).',
	'',
	'<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>',
	'',
	'![tracker](https://tracker.example/pixel.png)',
	'',
	// Not `js`: a reply that is mostly a javascript block would be run as code (models without tools).
	'```ts',
	"const user = await ig.users.getByUsername('luna.explorer')",
	'```'
].join('\n')

/** The code for a question, then its answer once the code's output is back. */
function script(request: RecordedRequest) {
	const question = lastQuestion(request)
	const ranCode = request.body.messages.at(-1)?.role === 'tool'
	const codeFor: Record<string, string> = {
		'first question': "console.log('one')",
		'second question': "console.log('two')",
		'Follow luna': `await ig.friendships.follow('${lunaPk}')`,
		'Follow xss': `await ig.friendships.follow('${xssPk}')`,
		'Save a report': "await saveFile('report.csv', 'name,likes\\nluna,3')",
		// "Trojan Source": the override and isolate reorder how the follow reads around the string.
		'Hidden follow': `const note = 'read only \u202e'; await ig.friendships.follow('${lunaPk}') // \u2066'`,
		// Tag characters spell ASCII nobody sees; a Hangul filler and a soft hyphen show as nothing.
		'Tagged comment': `await ig.media.comment('1', 'Great shot!\u{E0032}\u{E0046}\u{E0041}\u3164\u00ad ❤️')`
	}
	if (question === 'Hostile') return reply.text(hostileAnswer)
	if (question === 'Failing question') return reply.error(503, 'overloaded')
	const code = codeFor[question]
	if (!code) return reply.text(`Answer to ${question}`)
	if (!ranCode) return reply.code(code, { description: `Code for ${question}` })
	if (question === 'second question') return held.second.promise.then(() => reply.text('**Second** answer'))
	return reply.text(`${question}: done`)
}

async function serve(permission: 'full_access' | 'ask_every'): Promise<string> {
	const app = harness.agentWeb({ permission, demo: true })
	const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	servers.push(server)
	return `http://127.0.0.1:${server.port}/`
}

beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript(script)
	fullAccessUrl = await serve('full_access')
	askEveryUrl = await serve('ask_every')
	browser = await launchBrowser()
	context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
	foreign = await blockForeignRequests(context)
	page = await context.newPage()
	watch = watchPage(page)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	for (const server of servers) await server.stop(true)
	await harness?.stop()
}, BROWSER_TIMEOUT)

async function ask(question: string): Promise<void> {
	const input = page.locator('.chat-input').first()
	await input.fill(question)
	await input.press('Enter')
}

const assistants = () => page.locator('.chat-log > .chat-assistant')

describe('streaming into bubbles', () => {
	test(
		'each question streams its steps into its own bubble',
		async () => {
			await page.goto(fullAccessUrl)
			await page.locator('.chat-empty').waitFor()
			await ask('first question')
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').first().waitFor()
			const first = assistants().nth(0)
			expect(await first.locator('.chat-step').count()).toBe(2)
			expect(await first.locator('.chat-code code').textContent()).toBe("console.log('one')")
			expect(await first.locator('.chat-answer').textContent()).toBe('first question: done\n')

			await ask('second question')
			const second = assistants().nth(1)
			// While the second answer is held back, its code is already in the second bubble.
			await second.locator('.chat-code code').waitFor()
			expect(await second.locator('.chat-code code').textContent()).toBe("console.log('two')")
			expect(await second.locator('.chat-status').isVisible()).toBe(true)
			expect(await second.getAttribute('aria-busy')).toBe('true')
			// The first bubble kept its own steps and its spinner stays hidden.
			expect(await first.locator('.chat-step').count()).toBe(2)
			expect(await first.locator('.chat-code').count()).toBe(1)
			expect(await first.locator('.chat-status').isVisible()).toBe(false)
			held.second.open()
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').nth(1).waitFor()
			expect(await second.locator('.chat-answer strong').textContent()).toBe('Second')
			expect(await second.locator('.chat-status').isVisible()).toBe(false)
			expect(await second.locator('.chat-meta').textContent()).toMatch(/^2 steps · 30 tokens · \d+\.\d s$/)
			expect(await second.locator('.chat-code .hljs-title, .chat-code .hljs-string').count()).toBeGreaterThan(
				0
			)
			expect(await page.locator('.chat-log [id]').count()).toBe(0)
			expect(watch.errors).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	test(
		'history comes back after a reload, a failed question saying it has no answer; reset clears it',
		async () => {
			await ask('Failing question')
			await assistants().nth(2).locator('.chat-error').waitFor()
			await page.reload()
			await page.locator('.chat-log > .chat-user').nth(2).waitFor()
			expect(await page.locator('.chat-log > .chat-user').allTextContents()).toEqual([
				'first question',
				'second question',
				'Failing question'
			])
			expect(await assistants().nth(1).locator('.chat-answer').textContent()).toContain('Second answer')
			expect(await assistants().nth(2).locator('.chat-answer').textContent()).toBe(
				'No answer: this question failed or was stopped.'
			)
			await page.locator('.chat-reset').click()
			await page.locator('.chat-empty').waitFor()
			await page.reload()
			await page.locator('.chat-empty').waitFor()
			expect(await page.locator('.chat-log > .chat-user').count()).toBe(0)
		},
		BROWSER_TIMEOUT
	)

	test(
		'Shift+Enter adds a line, Enter sends',
		async () => {
			const input = page.locator('.chat-input').first()
			await input.fill('')
			await input.type('line one')
			await input.press('Shift+Enter')
			await input.type('line two')
			expect(await input.inputValue()).toBe('line one\nline two')
			expect(await page.locator('.chat-log > .chat-user').count()).toBe(0)
			await input.press('Enter')
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').first().waitFor()
			expect(await page.locator('.chat-log > .chat-user').textContent()).toBe('line one\nline two')
		},
		BROWSER_TIMEOUT
	)
})

describe('files', () => {
	test(
		'files the code wrote are listed under the answer',
		async () => {
			await ask('Save a report')
			const files = assistants().last().locator('.chat-files li')
			await files.first().waitFor()
			expect(await files.textContent()).toMatch(/report\.csv \(\d+ B\)$/)
		},
		BROWSER_TIMEOUT
	)
})

describe('hostile answers', () => {
	test(
		'links other than http(s), raw HTML, scripts and images render inert',
		async () => {
			await ask('Hostile')
			const answer = assistants().last().locator('.chat-answer')
			await answer.locator('a').first().waitFor()
			const findings = await page.evaluate(() => {
				const root = document.querySelectorAll('.chat-log > .chat-assistant')
				const last = root[root.length - 1] as HTMLElement
				return {
					xss: (window as unknown as { __xss?: unknown }).__xss,
					images: last.querySelectorAll('img').length,
					scripts: last.querySelectorAll('script').length,
					handlers: [...last.querySelectorAll('*')].filter((element) =>
						[...element.attributes].some((attribute) => attribute.name.startsWith('on'))
					).length,
					links: [...last.querySelectorAll('.chat-answer a')].map((link) => ({
						href: link.getAttribute('href'),
						rel: link.getAttribute('rel'),
						target: link.getAttribute('target')
					})),
					text: last.querySelector('.chat-answer')?.textContent ?? ''
				}
			})
			expect(findings.xss).toBeUndefined()
			expect(findings.images).toBe(0)
			expect(findings.scripts).toBe(0)
			expect(findings.handlers).toBe(0)
			expect(findings.links).toEqual([
				{ href: null, rel: null, target: null },
				{ href: 'https://example.com/safe', rel: 'noopener noreferrer', target: '_blank' },
				{ href: 'https://tracker.example/pixel.png', rel: 'noopener noreferrer', target: '_blank' }
			])
			// Raw HTML is shown as the text it is.
			expect(findings.text).toContain('<img src=x onerror="window.__xss=1">')
			await answer.locator('a').first().click()
			expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined()
			// The code block in the answer is highlighted and has a copy button.
			expect(await answer.locator('.chat-code .chat-copy').count()).toBe(1)
			expect(await answer.locator('.chat-code .hljs-keyword').count()).toBeGreaterThan(0)
			expect(watch.dialogs).toEqual([])
			expect(foreign.urls).toEqual([])
		},
		BROWSER_TIMEOUT
	)
})

describe('approval cards', () => {
	test(
		'approving one run follows; denying the next leaves the account unchanged',
		async () => {
			await harness.client.friendships.unfollow(lunaPk)
			await harness.client.friendships.unfollow(xssPk)
			await page.goto(askEveryUrl)
			await page.locator('.chat-empty').waitFor()

			await ask('Follow luna')
			const cards = page.locator('.chat-log > .chat-assistant').last().locator('.chat-approval')
			await cards.nth(0).waitFor()
			expect(await cards.nth(0).locator('.chat-approval-kind').textContent()).toBe('Run code')
			expect(await cards.nth(0).locator('code').textContent()).toContain('ig.friendships.follow')
			await cards.nth(0).locator('.chat-approve').click()
			await cards.nth(1).waitFor()
			expect(await cards.nth(1).locator('.chat-approval-kind').textContent()).toBe('Write on the account')
			expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
			// Keyboard: the Approve button is reachable and works with Enter.
			await cards.nth(1).locator('.chat-approve').focus()
			await page.keyboard.press('Enter')
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').last().waitFor()
			expect(await cards.nth(1).getAttribute('data-outcome')).toBe('approved')
			expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)

			await ask('Follow xss')
			const next = page.locator('.chat-log > .chat-assistant').nth(1).locator('.chat-approval')
			await next.first().waitFor()
			await next.first().locator('.chat-deny').click()
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').nth(1).waitFor()
			expect(await next.first().getAttribute('data-outcome')).toBe('denied')
			expect(await next.count()).toBe(1)
			expect(harness.simulator.state.isFollowing(xssPk)).toBe(false)
			// After the answer the denied step is still in view, in the person's words.
			const deniedBubble = page.locator('.chat-log > .chat-assistant').nth(1)
			expect(await deniedBubble.locator('.chat-answer').textContent()).toContain('Follow xss: done')
			const deniedLine = deniedBubble.locator('.chat-result-denied')
			expect(await deniedLine.isVisible()).toBe(true)
			expect(await deniedLine.textContent()).toBe('✗ You denied: run code')
			expect(await deniedBubble.textContent()).not.toContain('Do not retry')
			expect(watch.errors).toEqual([])
		},
		BROWSER_TIMEOUT
	)
})

describe('an approval card shows what runs', () => {
	test(
		'invisible and direction-changing characters in the code are written as escapes',
		async () => {
			// A conversation of its own: the earlier tests left theirs on this server.
			const reset = await fetch(new URL('api/reset', askEveryUrl), { method: 'POST' })
			expect(reset.status).toBe(200)
			await page.goto(askEveryUrl)
			await page.locator('.chat-empty').waitFor()
			await ask('Hidden follow')
			const card = page.locator('.chat-log > .chat-assistant').last().locator('.chat-approval').first()
			await card.waitFor()
			const shown = (await card.locator('code').textContent()) ?? ''
			expect(shown).toContain("'read only \\u202e'; await ig.friendships.follow('")
			expect(shown).toContain('\\u2066')
			expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
			await card.locator('.chat-deny').click()
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').last().waitFor()
			expect(await card.getAttribute('data-outcome')).toBe('denied')
			// Text no one sees is shown as escapes too, an emoji's own selector left as it is.
			await ask('Tagged comment')
			const tagged = page.locator('.chat-log > .chat-assistant').last().locator('.chat-approval').first()
			await tagged.waitFor()
			const code = (await tagged.locator('code').textContent()) ?? ''
			expect(code).toContain('Great shot!\\u{e0032}\\u{e0046}\\u{e0041}\\u3164\\u00ad ❤️')
			expect(code).not.toMatch(/[\u{E0000}-\u{E007F}\u3164\u00ad]/u)
			await tagged.locator('.chat-deny').click()
			await page.locator('.chat-log > .chat-assistant[aria-busy="false"]').last().waitFor()
		},
		BROWSER_TIMEOUT
	)
})

describe('parallel tasks and small screens', () => {
	test(
		'the parallel form runs tasks and shows a summary; the page fits 360 px',
		async () => {
			await page.setViewportSize({ width: 360, height: 740 })
			await page.goto(fullAccessUrl)
			await page.locator('.chat-log > .chat-user').first().waitFor()
			await page.locator('.chat-parallel > summary').click()
			await page.locator('.chat-tasks-input').fill('task alpha\ntask beta')
			await page.locator('.chat-tasks-form button[type=submit]').click()
			const run = page.locator('.chat-parallel-run[aria-busy="false"]')
			await run.waitFor()
			expect(await run.locator('.chat-parallel-table tbody tr').count()).toBe(2)
			expect(await run.locator('.chat-assistant').nth(0).locator('.chat-answer').textContent()).toContain(
				'Answer to task alpha'
			)
			expect(await run.locator('.chat-assistant').nth(1).locator('.chat-answer').textContent()).toContain(
				'Answer to task beta'
			)
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
			expect(overflow).toBeLessThanOrEqual(0)
			await page.setViewportSize({ width: 1100, height: 900 })
		},
		BROWSER_TIMEOUT
	)
})
