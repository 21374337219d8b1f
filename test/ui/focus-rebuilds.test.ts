/**
 * Buttons whose press redraws what holds them, pressed from the keyboard in Chromium against a demo
 * playground: the focus stays on the redrawn control (a job's Pause and Resume swap, Cancel leaves
 * it on the job's card, a watch's "Run now" and its name keep it) or moves to the result the press
 * opened (a comment's "Show all", History's Re-run), never to the page's body.
 */
import { describe, expect, test } from 'bun:test'
import { THREAD } from '../../assets/playground/panels/catalog-fields'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import {
	BROWSER_TIMEOUT,
	expectCleanPage,
	focusedElement,
	openPanel,
	runAction,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser()

const focused = () => focusedElement(ui.page)

/** Focuses `locator` and presses Enter, as a keyboard user does. */
async function pressEnterOn(locator: ReturnType<typeof ui.page.locator>): Promise<void> {
	await locator.focus()
	await ui.page.keyboard.press('Enter')
}

describe('focus after a redraw', () => {
	test(
		"a job's Pause gives the focus to Resume, Resume to Pause, and Cancel to the job's card",
		async () => {
			ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 400, pathPattern: 'feed|graphql' })
			await openPanel(ui.page, ui.playground, 'jobs')
			await ui.page.locator('#job-kind').selectOption('posts')
			await ui.page.locator('#job-target').fill(DEMO_PRESETS.mega.username)
			await ui.page.locator('main form button[type=submit]').click()
			const job = ui.page.locator('main article.job', { hasText: DEMO_PRESETS.mega.username }).first()
			await job.locator('button', { hasText: 'Pause' }).waitFor()
			const id = await job.getAttribute('data-job')
			await pressEnterOn(job.locator('button', { hasText: 'Pause' }))
			await ui.page.locator(`main article.job[data-job="${id}"][data-status="paused"]`).waitFor()
			expect(await focused()).toMatchObject({ tag: 'button', label: `Resume job ${id}` })
			await ui.page.keyboard.press('Enter')
			await ui.page.locator(`main article.job[data-job="${id}"][data-status="running"]`).waitFor()
			expect(await focused()).toMatchObject({ tag: 'button', label: `Pause job ${id}` })
			// Pages arrive and redraw the card: the focus stays on Pause.
			const pages = Number(await job.getAttribute('data-pages'))
			await ui.page.waitForFunction(
				([jobId, before]) =>
					Number(document.querySelector<HTMLElement>(`article.job[data-job="${jobId}"]`)?.dataset.pages) >
					Number(before),
				[id, String(pages)]
			)
			expect(await focused()).toMatchObject({ tag: 'button', label: `Pause job ${id}` })
			await pressEnterOn(job.locator('button', { hasText: 'Cancel' }))
			await ui.page.locator(`main article.job[data-job="${id}"][data-status="cancelled"]`).waitFor()
			ui.playground.simulator.faults.clear()
			expect(await focused()).toMatchObject({ tag: 'article', label: `Job ${id}` })
		},
		BROWSER_TIMEOUT
	)

	test(
		'a watch\'s "Run now" and its name keep the focus while the table is redrawn',
		async () => {
			await openPanel(ui.page, ui.playground, 'watch')
			for (const target of ['#coffee', '#sunset']) {
				await ui.page.locator('main input[name="target"]').fill(target)
				await ui.page.locator('main form button[type=submit]').click()
				await ui.page.locator('main .watch-table tbody tr', { hasText: target }).waitFor()
			}
			const coffee = ui.page.locator('main .watch-table tbody tr', { hasText: '#coffee' })
			await coffee.filter({ hasText: '1 snapshot' }).waitFor()
			// The run takes a moment: the table is redrawn when it starts and when it ends.
			ui.playground.simulator.faults.set({ kind: 'latency', latencyMs: 500, pathPattern: 'coffee' })
			await pressEnterOn(coffee.locator('button', { hasText: 'Run now' }))
			await coffee.filter({ hasText: '2 snapshots' }).waitFor()
			ui.playground.simulator.faults.clear()
			expect(await focused()).toMatchObject({ tag: 'button', label: 'Run #coffee now' })
			const sunset = ui.page.locator('main .watch-table tbody tr', { hasText: '#sunset' })
			await pressEnterOn(sunset.locator('button.link-button'))
			await sunset.locator('button[aria-pressed="true"]').waitFor()
			expect(await focused()).toMatchObject({ tag: 'button', text: '#sunset', pressed: 'true' })
		},
		BROWSER_TIMEOUT
	)

	test(
		'a comment\'s "Show all" gives the focus to the result with the replies',
		async () => {
			await openPanel(ui.page, ui.playground, 'media/comments')
			await ui.page.locator('main input[name="media_pk"]').fill(THREAD.mediaPk)
			await runAction(ui.page, 'comments')
			await pressEnterOn(ui.page.locator('main .data-table tbody button', { hasText: 'Show all' }).first())
			await ui.page.locator('main .request-preview', { hasText: '/replies/' }).waitFor()
			await ui.page.locator('main .result[aria-busy="false"] .data-table').waitFor()
			expect(await ui.page.locator('main .result-caption').textContent()).toContain('/replies/')
			expect(await focused()).toMatchObject({ isResult: true })
		},
		BROWSER_TIMEOUT
	)

	test(
		"History's Re-run gives the focus to the result it opens",
		async () => {
			await openPanel(ui.page, ui.playground, 'history')
			const row = ui.page.locator('main .history-table tbody tr', { hasText: '/replies/' }).first()
			const answer = ui.page.waitForResponse((response) => response.url().includes('/replies/'))
			await pressEnterOn(row.locator('button', { hasText: 'Re-run' }))
			await answer
			await ui.page.locator('main .panel-title', { hasText: 'Media' }).waitFor()
			await ui.page.locator('main .result[aria-busy="false"] .data-table').waitFor()
			expect(await ui.page.locator('main .result-caption').textContent()).toContain('/replies/')
			expect(await focused()).toMatchObject({ isResult: true })
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
