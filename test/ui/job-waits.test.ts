/**
 * The Jobs panel in Chromium while a job waits for a slot of the client's request budget: the note
 * says so and counts the time left down, as the wait goes on.
 */
import { expect, test } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { BROWSER_TIMEOUT, expectCleanPage, openPanel, useDemoBrowser } from '../support/browser'

// One follower page per 30 seconds: luna.explorer's second page waits for its slot.
const ui = useDemoBrowser(
	{},
	{ playground: { clientOptions: { rateLimits: { get_default: { limit: 1, windowMs: 30_000 } } } } }
)

/** The seconds the job's note says are left, or null when it shows no budget wait. */
const secondsLeft = () =>
	ui.page.evaluate(() => {
		const text = document.querySelector('main article.job .job-note')?.textContent ?? ''
		const match = /^Waiting (\d+) s for the next request slot/.exec(text)
		return match ? Number(match[1]) : null
	})

test(
	'a job waiting for a request slot says how long is left, counting down',
	async () => {
		const { page } = ui
		await openPanel(page, ui.playground, 'jobs')
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
		expectCleanPage(ui)
	},
	BROWSER_TIMEOUT
)
