/**
 * The chat page's layout in Chromium, measured: an answer (or error) that arrives is scrolled into
 * the log's visible box when the person was following the conversation, and nobody reading older
 * turns is moved; Markdown tables scroll sideways instead of breaking words; the header names the
 * model once `--model auto` has resolved it; an 11-task parallel run is refused before it is sent,
 * keeping its text, with one message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import {
	blockForeignRequests,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	watchPage
} from '../support/browser'
import { type RecordedRequest, reply } from '../support/fake-llm'
import { type ChatHarness, gate, lastQuestion, startChatHarness } from './support'

const BROWSER_TIMEOUT = 120_000

let harness: ChatHarness
let browser: Browser
let page: Page
let watch: PageWatch
let foreign: ForeignRequests
let server: ReturnType<typeof Bun.serve>
const held = gate()

/** 40 list items: taller than the log (65% of a 700-pixel window). */
const longAnswer = (name: string) =>
	[
		`**${name}** answer starts here.`,
		'',
		...Array.from({ length: 40 }, (_, index) => `- line ${index + 1}`)
	].join('\n')
const row = (cells: number, value: (index: number) => string) =>
	`| ${Array.from({ length: cells }, (_, index) => value(index)).join(' | ')} |`
const table = (names: string[], rows: ((index: number) => string)[]) =>
	[
		row(names.length, (index) => names[index]),
		row(names.length, () => '---'),
		...rows.map((cells) => row(names.length, cells))
	].join('\n')
const sevenColumns = table(
	['Post', 'Caption', 'Likes', 'Comments', 'Saves', 'Posted', 'Type'],
	[
		(index) =>
			['DVUVYxwAOOz', 'Sunset over the bay', '11234', '3456', '789', '2024-05-01', 'carousel'][index],
		(index) => ['DQx1aBcDeFg', 'Morning hike', '9876', '543', '21', '2024-05-02', 'reel'][index]
	]
)
const twentyColumns = table(
	Array.from({ length: 20 }, (_, index) => `column${index + 1}`),
	[(index) => `value${index + 1}`, (index) => `${1000 + index}`]
)
const longToken = `https://example.com/${'a'.repeat(300)}`

function script(request: RecordedRequest) {
	const question = lastQuestion(request)
	const ranCode = request.body.messages.at(-1)?.role === 'tool'
	if (question === 'Short one' || question.startsWith('task ')) return reply.text(`Answer to ${question}.`)
	if (question === 'Failing question') return reply.error(503, 'overloaded')
	if (question === 'Held') return held.promise.then(() => reply.text(longAnswer('Held')))
	if (question === 'Seven columns') return reply.text(`The posts:\n\n${sevenColumns}`)
	if (question === 'Twenty columns') return reply.text(`Wide:\n\n${twentyColumns}`)
	if (question === 'Long link') return reply.text(`See ${longToken} for more.`)
	if (!ranCode) return reply.code(`console.log('${question}')`, { description: `Code for ${question}` })
	return reply.text(longAnswer(question))
}

beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript(script)
	// `--model auto`: the status says `auto` until the first ask has asked the server for its models.
	const app = harness.agentWeb({ permission: 'ask_once', demo: true, model: 'auto' })
	server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	browser = await launchBrowser()
	const context = await browser.newContext({ viewport: { width: 1100, height: 700 } })
	foreign = await blockForeignRequests(context)
	page = await context.newPage()
	watch = watchPage(page)
	await page.goto(`http://127.0.0.1:${server.port}/`)
	await page.locator('.chat-empty').waitFor()
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await harness?.stop()
}, BROWSER_TIMEOUT)

async function ask(question: string): Promise<void> {
	const input = page.locator('.chat-input').first()
	await input.fill(question)
	await input.press('Enter')
}

const lastAssistant = () => page.locator('.chat-log > .chat-assistant').last()

/** Waits for the last bubble's answer, approving each card on the way. */
async function answered(): Promise<void> {
	const bubble = lastAssistant()
	for (;;) {
		const pending = bubble.locator('.chat-approval:not([data-outcome]) .chat-approve')
		await Promise.race([bubble.and(page.locator('[aria-busy="false"]')).waitFor(), pending.first().waitFor()])
		if ((await bubble.getAttribute('aria-busy')) === 'false') return
		await pending.first().click()
		await pending
			.first()
			.waitFor({ state: 'detached' })
			.catch(() => {})
	}
}

/** Where `selector` (in the last bubble) is, against the log's visible box. */
function placement(selector: string) {
	return page.evaluate((selector) => {
		const log = document.querySelector('.chat-log') as HTMLElement
		const bubbles = log.querySelectorAll(':scope > .chat-assistant')
		const target = bubbles[bubbles.length - 1].querySelector(selector) as HTMLElement
		const view = log.getBoundingClientRect()
		const box = target.getBoundingClientRect()
		return {
			viewTop: view.top,
			viewBottom: view.bottom,
			top: box.top,
			bottom: box.bottom,
			scrollTop: log.scrollTop
		}
	}, selector)
}

/**
 * Whether `selector`'s start is in the log's visible box, with at least `shown` pixels of it (or
 * all of it) in view; with where it is, for the failure message.
 */
async function startShown(selector: string, shown = 150) {
	const where = await placement(selector)
	const visible = where.viewBottom - where.top
	return {
		inView: where.top >= where.viewTop - 1 && visible >= Math.min(shown, where.bottom - where.top),
		pixelsShown: Math.round(visible)
	}
}

describe('following the conversation', () => {
	test(
		'the header names the model once the first answer has resolved `auto`',
		async () => {
			const badge = page.locator('#badges .badge', { hasText: 'OpenAI' })
			expect(await badge.textContent()).toBe('OpenAI · auto')
			await ask('Short one')
			await answered()
			await page.waitForFunction(
				() => document.querySelector('#badges')?.textContent?.includes('OpenAI · fake-model'),
				null,
				{ timeout: 5000 }
			)
			expect(await badge.textContent()).toBe('OpenAI · fake-model')
		},
		BROWSER_TIMEOUT
	)

	test(
		'answers after approvals and steps, errors and short answers arrive in view',
		async () => {
			// Asked once: the first run of code needs an approval, the second runs at once (the audit's case).
			for (const [question, approvals] of [
				['First approval', 1],
				['Second approval', 0]
			] as const) {
				await ask(question)
				await answered()
				expect(await lastAssistant().locator('.chat-approval').count()).toBe(approvals)
				expect(await lastAssistant().locator('.chat-step').count()).toBe(2)
				expect({ question, ...(await startShown('.chat-answer')) }).toMatchObject({ question, inView: true })
				expect(await lastAssistant().locator('.chat-answer strong').textContent()).toBe(question)
			}
			await ask('Failing question')
			await answered()
			const error = await placement('.chat-error')
			expect(error.top).toBeGreaterThanOrEqual(error.viewTop - 1)
			expect(error.bottom).toBeLessThanOrEqual(error.viewBottom + 1)
			await ask('Short one')
			await answered()
			// A short answer is shown whole, down to its meta line.
			const meta = await placement('.chat-meta')
			expect((await placement('.chat-answer')).top).toBeGreaterThanOrEqual(meta.viewTop - 1)
			expect(meta.bottom).toBeLessThanOrEqual(meta.viewBottom + 1)
		},
		BROWSER_TIMEOUT
	)

	test(
		'someone who scrolled up to read older turns stays where they are',
		async () => {
			await ask('Held')
			await lastAssistant().locator('.chat-status').waitFor()
			await page.locator('.chat-log').evaluate((log) => {
				log.scrollTop = 0
			})
			held.open()
			await answered()
			expect(await page.locator('.chat-log').evaluate((log) => log.scrollTop)).toBe(0)
		},
		BROWSER_TIMEOUT
	)
})

/** Cells of the last answer's table whose text (one word) takes more than one line. */
function brokenCells() {
	return page.evaluate(() => {
		const bubbles = document.querySelectorAll('.chat-log > .chat-assistant')
		const cells = [...bubbles[bubbles.length - 1].querySelectorAll('.chat-answer th, .chat-answer td')]
		return cells
			.filter((cell) => !/\s/.test(cell.textContent?.trim() ?? ''))
			.filter((cell) => {
				const range = document.createRange()
				range.selectNodeContents(cell)
				return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1
			})
			.map((cell) => cell.textContent)
	})
}

describe('tables in answers', () => {
	test(
		'a wide table scrolls sideways, every word in its cell on one line; long tokens in prose still wrap',
		async () => {
			await page.setViewportSize({ width: 640, height: 900 })
			await ask('Seven columns')
			await answered()
			expect(await brokenCells()).toEqual([])
			await ask('Twenty columns')
			await answered()
			expect(await brokenCells()).toEqual([])
			const wide = await lastAssistant()
				.locator('.chat-answer table')
				.evaluate((element) => {
					element.scrollLeft = 100
					return {
						scrollWidth: element.scrollWidth,
						clientWidth: element.clientWidth,
						scrollLeft: element.scrollLeft,
						height: element.getBoundingClientRect().height
					}
				})
			expect(wide.scrollWidth).toBeGreaterThan(wide.clientWidth)
			expect(wide.scrollLeft).toBe(100)
			// Three rows of one line each, not a column of letters thousands of pixels tall.
			expect(wide.height).toBeLessThan(200)
			await ask('Long link')
			await answered()
			const bubble = await lastAssistant().evaluate((element) => ({
				scrollWidth: element.scrollWidth,
				clientWidth: element.clientWidth
			}))
			expect(bubble.scrollWidth).toBeLessThanOrEqual(bubble.clientWidth)
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
			expect(overflow).toBeLessThanOrEqual(0)
			await page.setViewportSize({ width: 1100, height: 700 })
		},
		BROWSER_TIMEOUT
	)
})

describe('parallel tasks', () => {
	test(
		'11 tasks are refused before sending: the text stays, one message says why',
		async () => {
			const sent: string[] = []
			page.on('request', (request) => {
				if (request.url().includes('/api/parallel')) sent.push(request.url())
			})
			const runs = await page.locator('.chat-parallel-run').count()
			await page.locator('.chat-parallel > summary').click()
			const tasks = Array.from({ length: 11 }, (_, index) => `task ${index + 1}`).join('\n')
			const box = page.locator('.chat-tasks-input')
			await box.fill(tasks)
			await page.locator('.chat-tasks-form button[type=submit]').click()
			const problem = page.locator('.chat-tasks-problem')
			// The message, or (as before) a run that the server refused.
			await problem.or(page.locator('.chat-parallel-run[aria-busy="false"]')).first().waitFor()
			expect(sent).toEqual([])
			expect(await page.locator('.chat-parallel-run').count()).toBe(runs)
			expect(await box.inputValue()).toBe(tasks)
			expect(await page.getByText(/Too many tasks/).count()).toBe(1)
			expect(await problem.textContent()).toContain('Too many tasks: 11 (at most 10)')
			expect(await box.getAttribute('aria-invalid')).toBe('true')
			// Editing the list clears the message; a list of 10 or fewer runs.
			await box.fill('task alpha\ntask beta')
			expect(await problem.isVisible()).toBe(false)
			await page.locator('.chat-tasks-form button[type=submit]').click()
			await page.locator('.chat-parallel-run[aria-busy="false"]').waitFor()
			expect(sent).toHaveLength(1)
			expect(await box.inputValue()).toBe('')
			// A list the server refuses all the same comes back into the box, the reason said once.
			await page.route('**/api/parallel/stream', (route) =>
				route.fulfill({ status: 503, json: { success: false, error: 'Refused for the test' } })
			)
			await box.fill('task gamma\ntask delta')
			await page.locator('.chat-tasks-form button[type=submit]').click()
			await page
				.locator('.chat-parallel-run[aria-busy="false"]')
				.nth(runs + 1)
				.waitFor()
			await page.unroute('**/api/parallel/stream')
			expect(await box.inputValue()).toBe('task gamma\ntask delta')
			expect(await page.getByText('Refused for the test').filter({ visible: true }).count()).toBe(1)
			expect(watch.errors).toEqual([])
			expect(watch.dialogs).toEqual([])
			expect(foreign.urls).toEqual([])
		},
		BROWSER_TIMEOUT
	)
})
