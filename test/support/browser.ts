/**
 * Browser-test support: Debian's Chromium driven by playwright-core (never a downloaded browser),
 * a guard that aborts and records every request leaving 127.0.0.1, and a demo playground
 * (simulator + playground app) listening on loopback port 0.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/** Where Debian (and CI) install Chromium. */
export const CHROMIUM_PATH = process.env.SMKIT_CHROMIUM ?? '/usr/bin/chromium'

/** Launches headless Chromium with everything that would phone home switched off. */
export function launchBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM_PATH,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync'
		]
	})
}

/** Requests a page tried to send beyond loopback (all aborted). */
export interface ForeignRequests {
	urls: string[]
}

const LOOPBACK_URL = /^(https?|wss?):\/\/127\.0\.0\.1(:\d+)?\//

/**
 * Aborts every request of `context` that is not to 127.0.0.1 and records its URL; `data:` and
 * `blob:` URLs never reach the router. Call before opening pages.
 */
export async function blockForeignRequests(context: BrowserContext): Promise<ForeignRequests> {
	const foreign: ForeignRequests = { urls: [] }
	await context.route(
		(url) => !LOOPBACK_URL.test(url.href),
		async (route) => {
			foreign.urls.push(route.request().url())
			await route.abort('blockedbyclient')
		}
	)
	return foreign
}

/** What a page did that a test may want to assert on. */
export interface PageWatch {
	/** Uncaught exceptions and console errors. */
	errors: string[]
	/** Messages of alert/confirm/prompt dialogs (each dismissed). */
	dialogs: string[]
}

/** Records page errors and dismisses (and records) any JavaScript dialog. */
export function watchPage(page: Page): PageWatch {
	const watch: PageWatch = { errors: [], dialogs: [] }
	page.on('pageerror', (error) => watch.errors.push(error.message))
	page.on('console', (message) => {
		if (message.type() === 'error') watch.errors.push(message.text())
	})
	page.on('dialog', (dialog) => {
		watch.dialogs.push(dialog.message())
		void dialog.dismiss()
	})
	return watch
}

/** A temporary directory removed by the returned function. */
export async function temporaryDirectory(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
	const path = await mkdtemp(join(tmpdir(), prefix))
	return { path, remove: () => rm(path, { recursive: true, force: true }) }
}

/** Folder for screenshots (git-ignored). */
export const SCREENSHOT_DIR = join(import.meta.dir, '..', '..', 'test-artifacts', 'screenshots')
