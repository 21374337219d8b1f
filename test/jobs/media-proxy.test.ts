/**
 * Media downloads behind proxies: the pictures a `media` job saves go through the client's proxies
 * (same rotation and NO_PROXY rules as its API calls), never around them.
 */
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fetchThroughProxies, ProxyPool } from '../../src/client/proxy'
import type { Media } from '../../src/client/types'
import { downloadMediaFiles, filesOf } from '../../src/jobs/downloads'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { useSimulator } from '../client/simulator-setup'
import { startTestProxy } from '../support/proxy'

const simulator = useSimulator()
const folder = mkdtempSync(join(tmpdir(), 'smkit-media-proxy-'))
const proxies = [startTestProxy(), startTestProxy()]
afterAll(async () => {
	await Promise.all(proxies.map((proxy) => proxy.stop()))
	rmSync(folder, { recursive: true, force: true })
})

const downloadsOf = (index: number) =>
	(proxies[index]?.requests ?? []).filter((entry) => new URL(entry.url).pathname.startsWith('/__sim/img/'))

test('media files are fetched through the rotating proxies; NO_PROXY hosts directly', async () => {
	const page = await simulator.client().feed.getUserFeed(DEMO_PRESETS.luna.pk, { count: 12 })
	const pictures = page.items.filter((media: Media) =>
		filesOf(media).every((file) => file.url.endsWith('.svg') || file.url.includes('.svg?'))
	)
	expect(pictures.length).toBeGreaterThanOrEqual(4)
	const pool = new ProxyPool({ urls: proxies.map((proxy) => proxy.url), mode: 'rotate' })
	const signal = new AbortController().signal
	const names: string[] = []
	for (const media of pictures.slice(0, 4))
		names.push(
			...(await downloadMediaFiles(media, join(folder, 'through'), signal, fetchThroughProxies(pool))).files
		)
	expect(readdirSync(join(folder, 'through')).toSorted()).toEqual(names.toSorted())
	expect([downloadsOf(0).length, downloadsOf(1).length]).toEqual([names.length / 2, names.length / 2])

	const direct = new ProxyPool({ urls: [proxies[0]?.url as string], noProxy: '127.0.0.1' })
	const before = proxies[0]?.count
	await downloadMediaFiles(pictures[0] as Media, join(folder, 'direct'), signal, fetchThroughProxies(direct))
	expect(readdirSync(join(folder, 'direct')).length).toBeGreaterThan(0)
	expect(proxies[0]?.count).toBe(before as number)
})
