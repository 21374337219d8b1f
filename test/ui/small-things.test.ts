/**
 * Small things in Chromium against a demo playground: the header links to the API reference, both
 * UIs and the API reference have an icon, and the Hashtags panel says what it does once.
 */
import { describe, expect, test } from 'bun:test'
import { createAgentWeb } from '../../src/agentweb/app'
import { createDemoClient } from '../../src/demo'
import {
	BROWSER_TIMEOUT,
	expectCleanPage,
	openPanel,
	startDemoPlayground,
	useDemoBrowser
} from '../support/browser'

const ui = useDemoBrowser()

/** Checks an answer is the ICO file: status, type and the ICO header with a PNG inside. */
async function expectIcon(response: Response): Promise<void> {
	expect(response.status).toBe(200)
	expect(response.headers.get('content-type')).toBe('image/x-icon')
	const bytes = new Uint8Array(await response.arrayBuffer())
	expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0])
	expect(new TextDecoder().decode(bytes.slice(23, 26))).toBe('PNG')
}

describe('small things', () => {
	test(
		'the header links to the API reference, which opens',
		async () => {
			await openPanel(ui.page, ui.playground, 'users')
			const link = ui.page.locator('header.topbar a', { hasText: 'API' })
			expect(await link.getAttribute('href')).toBe('/openapi')
			const opened = ui.page.context().waitForEvent('page')
			await link.click()
			const reference = await opened
			await reference.waitForLoadState('domcontentloaded')
			expect(new URL(reference.url()).pathname).toBe('/openapi')
			expect(await reference.title()).toBe('smkit playground API')
			await reference.close()
			// At phone width the header still fits.
			await ui.page.setViewportSize({ width: 360, height: 740 })
			expect(await link.isVisible()).toBe(true)
			const box = await link.boundingBox()
			expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(360)
			await ui.page.setViewportSize({ width: 1280, height: 900 })
		},
		BROWSER_TIMEOUT
	)

	test(
		'both UIs name an icon; /favicon.ico answers for the API reference, without the token',
		async () => {
			const icon = await ui.page.locator('link[rel=icon]').getAttribute('href')
			expect(icon).toStartWith('data:image/svg+xml,')
			// The browser draws it: an image decoded from the same data URL has a size.
			const width = await ui.page.evaluate(async (url) => {
				const image = new Image()
				image.src = url
				await image.decode()
				return image.naturalWidth
			}, icon as string)
			expect(width).toBeGreaterThan(0)
			await expectIcon(await fetch(`${ui.playground.origin}/favicon.ico`))

			const guarded = await startDemoPlayground({ token: 'icon-test-token' })
			try {
				await expectIcon(await fetch(`${guarded.origin}/favicon.ico`))
				expect((await fetch(`${guarded.origin}/api/status`)).status).toBe(403)
			} finally {
				await guarded.stop()
			}

			const chat = createAgentWeb({
				client: createDemoClient(ui.playground.simulator.url),
				env: {},
				provider: 'openai',
				apiKey: 'sk-test-icon',
				baseURL: 'http://127.0.0.1:9',
				model: 'fake-model',
				log: () => {}
			})
			const chatPage = await (await chat.handle(new Request('http://127.0.0.1/'))).text()
			expect(chatPage).toContain('<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,')
			await expectIcon(await chat.handle(new Request('http://127.0.0.1/favicon.ico')))
		},
		BROWSER_TIMEOUT
	)

	test(
		"the Hashtags panel's description is printed once",
		async () => {
			await openPanel(ui.page, ui.playground, 'hashtags')
			const text = (await ui.page.locator('main').textContent()) ?? ''
			expect(text.split('Hashtag information').length - 1).toBe(1)
		},
		BROWSER_TIMEOUT
	)

	test(
		"every form field's hint is its input's description (screen readers read it with the label)",
		async () => {
			for (const panel of ['users', 'feed/user', 'jobs', 'analytics', 'compare']) {
				await openPanel(ui.page, ui.playground, panel)
				const unlinked = await ui.page.locator('main form .field').evaluateAll((fields) =>
					fields.flatMap((field) => {
						const hint = field.querySelector('.field-hint')
						const control = field.querySelector('input, select, textarea')
						if (!hint || !control) return []
						const described = (control.getAttribute('aria-describedby') ?? '').split(' ')
						return hint.id !== '' && described.includes(hint.id) ? [] : [hint.textContent]
					})
				)
				expect({ panel, unlinked }).toEqual({ panel, unlinked: [] })
			}
		},
		BROWSER_TIMEOUT
	)
})

test('no request left 127.0.0.1 and no script error happened', () => expectCleanPage(ui), BROWSER_TIMEOUT)
