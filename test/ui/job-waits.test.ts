/**
 * The Jobs panel in Chromium while a job waits for a slot of the client's request budget: the note
 * says so and counts the time left down, as the wait goes on.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import {
	BROWSER_TIMEOUT,
	blockForeignRequests,
	type DemoPlayground,
	type ForeignRequests,
	launchBrowser,
	openPanel,
	type PageWatch,
	startDemoPlayground,
	watchPage
} from '../support/browser'

let playground: DemoPlayground
let browser: Browser
let page: Page
let foreign: ForeignRequests
let pageWatch: PageWatch

beforeAll(async () => {
	// One follower page per 30 seconds: luna.explorer's second page waits for its slot.
	;[playground, browser] = await Promise.all([
		startDemoPlayground({ clientOptions: { rateLimits: { get_default: { limit: 1, windowMs: 30_000 } } } }),
		launchBrowser()
	])
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
	foreign = await blockForeignRequests(context)
	page = await context.newPage()
	pageWatch = watchPage(page)
}, BROWSER_TIMEOUT)

afterAll(async () => {
	await browser?.close()
	await playground?.stop()
}, BROWSER_TIMEOUT)

/** The seconds the job's note says are left, or null when it shows no budget wait. */
const secondsLeft = () =>
	page.evaluate(() => {
		const text = document.querySelector('main article.job .job-note')?.textContent ?? ''
		const match = /^Waiting (\d+) s for the next request slot/.exec(text)
		return match ? Number(match[1]) : null
	})

test(
	'a job waiting for a request slot says how long is left, counting down',
	async () => {
		await openPanel(page, playground, 'jobs')
		await page.locator('#job-kind').selectOption('followers')
		await page.locator('#job-target').fill(DEMO_PRESETS.luna.username)
		await page.locator('main form button[type=submit]').click()
		await page.waitForFunction(() =>
			/^Waiting \d+ s/.test(document.querySelector('main article.job .job-note')?.textContent ?? '')
		)
		const first = (await secondsLeft()) as number
		expect(first).toBeGreaterThan(2)
		await page.waitForFunction(
			(before) => {
				const text = document.querySelector('main article.job .job-note')?.textContent ?? ''
				const match = /^Waiting (\d+) s/.exec(text)
				return match !== null && Number(match[1]) < before
			},
			first,
			{ timeout: 15_000 }
		)
		expect(await page.locator('main article.job').getAttribute('data-status')).toBe('running')
		await page.getByRole('button', { name: /^Cancel job/ }).click()
		await page.locator('main article.job[data-status="cancelled"]').waitFor()
		expect(await secondsLeft()).toBeNull()
		expect(foreign.urls).toEqual([])
		expect(pageWatch.errors).toEqual([])
	},
	BROWSER_TIMEOUT
)
