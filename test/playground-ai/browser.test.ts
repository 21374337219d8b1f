/**
 * The playground's AI Chat panel in Chromium: the real playground UI (`/#ai-chat`), its shared chat
 * component and the `/api/ai/*` routes, with a scripted model behind them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import {
	type ChatHarness,
	followLuna,
	lastQuestion,
	lunaPk,
	startChatHarness,
	testApiKey
} from '../agentweb/support'
import { blockForeignRequests, launchBrowser, type PageWatch, watchPage } from '../support/browser'
import { reply } from '../support/fake-llm'

const BROWSER_TIMEOUT = 120_000
let harness: ChatHarness
let browser: Browser
let page: Page
let watch: PageWatch
let server: ReturnType<typeof Bun.serve>
let pageUrl = ''

beforeAll(async () => {
	harness = await startChatHarness()
	harness.llm.setScript((request) => {
		const question = lastQuestion(request)
		const ranCode = request.body.messages.at(-1)?.role === 'tool'
		if (question === 'Follow luna' && !ranCode) return reply.code(followLuna)
		return reply.text(`**Done:** ${question}`)
	})
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
	const context = await browser.newContext()
	await blockForeignRequests(context)
	page = await context.newPage()
	watch = watchPage(page)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await server?.stop(true)
	await harness?.stop()
}, BROWSER_TIMEOUT)

async function ask(question: string): Promise<void> {
	const input = page.locator('.chat-composer .chat-input')
	await input.fill(question)
	await input.press('Enter')
}

describe('the AI Chat panel of the playground', () => {
	test(
		'asks stream into their bubbles and the approval card decides the follow',
		async () => {
			await harness.client.friendships.unfollow(lunaPk)
			await page.goto(pageUrl)
			await page.locator('.chat-empty').waitFor()
			await ask('Follow luna')
			const card = page.locator('.chat-approval').first()
			await card.waitFor()
			await card.locator('.chat-approve').click()
			// ask_once: the write is a different kind of action, so it is asked about too.
			const write = page.locator('.chat-approval').nth(1)
			await write.waitFor()
			expect(await write.locator('code').textContent()).toContain(`ig.friendships.follow("${lunaPk}")`)
			await write.locator('.chat-approve').click()
			await page.locator('.chat-assistant[aria-busy="false"]').first().waitFor()
			expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)
			expect(await page.locator('.chat-assistant').first().locator('.chat-answer strong').textContent()).toBe(
				'Done:'
			)

			await ask('Anything else?')
			await page.locator('.chat-assistant[aria-busy="false"]').nth(1).waitFor()
			expect(await page.locator('.chat-assistant').nth(1).locator('.chat-answer').textContent()).toContain(
				'Anything else?'
			)
			expect(watch.errors).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	test(
		'the conversation comes back from the envelope history after a reload; reset clears it',
		async () => {
			await page.reload()
			await page.locator('.chat-user').nth(1).waitFor()
			expect(await page.locator('.chat-user').allTextContents()).toEqual(['Follow luna', 'Anything else?'])
			await page.locator('.chat-reset').click()
			await page.locator('.chat-empty').waitFor()
			const history = await (await fetch(`http://127.0.0.1:${server.port}/api/ai/history`)).json()
			expect(history.data).toEqual([])
		},
		BROWSER_TIMEOUT
	)

	test(
		'a denied run comes back after a reload marked as failed, as it was shown live',
		async () => {
			await ask('Follow luna')
			const card = page.locator('.chat-approval').first()
			await card.waitFor()
			await card.locator('.chat-deny').click()
			await page.locator('.chat-assistant[aria-busy="false"]').first().waitFor()
			await page.reload()
			const restored = page.locator('.chat-assistant .chat-result').first()
			await restored.waitFor({ state: 'attached' })
			expect(await restored.getAttribute('class')).toContain('chat-result-failed')
			expect(await restored.locator('summary').textContent()).toBe('✗ Tool output')
			const history = await (await fetch(`http://127.0.0.1:${server.port}/api/ai/history`)).json()
			expect(history.data.find((entry: { role: string }) => entry.role === 'tool')).toMatchObject({
				success: false
			})
			await page.locator('.chat-reset').click()
			await page.locator('.chat-empty').waitFor()
		},
		BROWSER_TIMEOUT
	)
})

describe('approving by keyboard', () => {
	test(
		'Enter on Approve keeps the focus on the card, and Tab goes on from there, not from the top',
		async () => {
			await harness.client.friendships.unfollow(lunaPk)
			await page.goto(pageUrl)
			await page.locator('.chat-reset').click()
			await page.locator('.chat-empty').waitFor()
			await ask('Follow luna')
			const card = page.locator('.chat-approval').first()
			await card.locator('.chat-approve').focus()
			await page.keyboard.press('Enter')
			await card.locator('.chat-approval-state', { hasText: 'Approved' }).waitFor()
			expect(await card.evaluate((element) => element.contains(document.activeElement))).toBe(true)
			// The write is asked about next; the keyboard reaches its Approve going forward.
			const write = page.locator('.chat-approval').nth(1)
			await write.waitFor()
			for (let step = 0; step < 10; step++) {
				if (await write.locator('.chat-approve').evaluate((button) => button === document.activeElement))
					break
				await page.keyboard.press('Tab')
			}
			expect(
				await write.locator('.chat-approve').evaluate((button) => button === document.activeElement)
			).toBe(true)
			await page.keyboard.press('Enter')
			// The answer closes the steps; the focus stays on their summary, in this turn.
			await page.locator('.chat-assistant[aria-busy="false"]').first().waitFor()
			await write.waitFor({ state: 'hidden' })
			expect(
				await page.evaluate(
					() => document.activeElement?.closest('.chat-assistant details > summary') != null
				)
			).toBe(true)
			expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)
			expect(watch.errors).toEqual([])
		},
		BROWSER_TIMEOUT
	)
})
