/**
 * The AI Chat panel in two tabs of one playground, in Chromium with a scripted model: the
 * conversation is the server's, so "New conversation" in one tab empties the chat of the other
 * too (without a reload), which keeps what was being typed there.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import { type ChatHarness, lastQuestion, startChatHarness, testApiKey } from '../agentweb/support'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	type ForeignRequests,
	launchBrowser,
	type PageWatch,
	watchPage
} from '../support/browser'
import { reply } from '../support/fake-llm'

let harness: ChatHarness
let browser: Browser
let context: BrowserContext
let foreign: ForeignRequests
let server: ReturnType<typeof Bun.serve>
let pageUrl = ''

beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript((request) => reply.text(`Answer to ${lastQuestion(request)}`))
	const ai = createPlaygroundAi({
		client: harness.client,
		env: { OPENAI_API_KEY: testApiKey, OPENAI_BASE_URL: harness.llm.url },
		permission: 'ask_once',
		filesDir: harness.filesDir,
		log: () => {}
	})
	const app = createPlaygroundApp({ ig: harness.client, ai, demo: true, log: () => {} })
	server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch })
	pageUrl = `http://127.0.0.1:${server.port}/#ai-chat`
	browser = await launchBrowser()
	context = await browser.newContext()
	foreign = await blockForeignRequests(context)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await harness?.stop()
}, BROWSER_TIMEOUT)

/** Opens the AI Chat panel in a new tab and waits for the chat. */
async function openTab(): Promise<{ page: Page; watch: PageWatch }> {
	const page = await context.newPage()
	const watch = watchPage(page)
	await page.goto(pageUrl)
	await page.locator('.chat-composer .chat-input').waitFor()
	return { page, watch }
}

test(
	'"New conversation" in one tab empties the chat in the other, keeping its draft',
	async () => {
		const first = await openTab()
		const input = first.page.locator('.chat-composer .chat-input')
		await input.fill('How many followers?')
		await input.press('Enter')
		await first.page.locator('.chat-assistant[aria-busy="false"]').waitFor()
		// The second tab shows the server's conversation, and a question being typed.
		const second = await openTab()
		await second.page.locator('.chat-user', { hasText: 'How many followers?' }).waitFor()
		await second.page.locator('.chat-composer .chat-input').fill('A draft')

		await first.page.locator('.chat-reset').click()
		await first.page.locator('.chat-empty').waitFor()
		await second.page.locator('.chat-empty').waitFor({ timeout: 10_000 })
		expect(await second.page.locator('.chat-user').count()).toBe(0)
		expect(await second.page.locator('.chat-composer .chat-input').inputValue()).toBe('A draft')
		// The first tab is still itself: it asks on in the new conversation.
		await input.fill('And now?')
		await input.press('Enter')
		await first.page.locator('.chat-assistant[aria-busy="false"]').waitFor()
		expect(await first.page.locator('.chat-user').allTextContents()).toEqual(['And now?'])

		expect(foreign.urls).toEqual([])
		for (const { watch } of [first, second]) expect([...watch.errors, ...watch.dialogs]).toEqual([])
	},
	BROWSER_TIMEOUT
)
