import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import type { Simulator } from '../../src/simulator/server'
import { startTestSimulator } from './support/simulator'

let simulator: Simulator
beforeAll(async () => {
	simulator = await startTestSimulator()
})
afterAll(() => simulator.stop())

const page = async (path: string) => {
	const response = await fetch(`${simulator.url}${path}`)
	return { status: response.status, type: response.headers.get('content-type'), html: await response.text() }
}

describe('GET /{username}/ (HTML profile)', () => {
	it('carries the title, og meta counts and JSON-LD the HTML strategy reads', async () => {
		const { status, type, html } = await page('/luna.explorer/')
		expect(status).toBe(200)
		expect(type).toContain('text/html')
		expect(html).toContain('<title>Luna Explorer (@luna.explorer) • Instagram photos and videos</title>')
		const followers = simulator.state.followersOf(DEMO_PRESETS.luna.pk).length
		expect(html).toMatch(
			new RegExp(`content="${followers} Followers, \\d+ Following, 120 Posts - See Instagram photos`)
		)
		expect(html).toContain('<meta property="og:image" content="http')
		const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? ''
		expect(JSON.parse(jsonLd).mainEntity.alternateName).toBe('@luna.explorer')
	})

	it('escapes every hostile payload of xss.payload', async () => {
		const { html } = await page('/xss.payload/')
		expect(html).not.toContain('<img src=x')
		expect(html).not.toContain('<script>window.__xss')
		expect(html).not.toContain('<svg onload')
		expect(html).toContain('&#60;img src=x onerror=&#34;window.__xss=1&#34;&#62;')
		expect(html.match(/<script/g)).toHaveLength(1) // only the JSON-LD block
		expect(html.match(/<\/script>/g)).toHaveLength(1)
	})

	it('answers the not-found page for unknown accounts', async () => {
		const { status, html } = await page(`/${DEMO_PRESETS.missing.username}/`)
		expect(status).toBe(404)
		expect(html).toContain("Sorry, this page isn't available.")
	})
})

describe('GET /p/{shortcode}/embed/captioned/', () => {
	it('shows the caption, the owner and the like count', async () => {
		const { status, html } = await page('/p/DVUVYxwAOOz/embed/captioned/')
		expect(status).toBe(200)
		expect(html).toContain('class="CaptionUsername"')
		expect(html).toContain('#sunset')
		const likes = simulator.state.likeCount(simulator.state.media(DEMO_PRESETS.media[0].pk)!)
		expect(html).toContain(`${likes} likes`)
	})

	it('escapes hostile captions and hides posts of private accounts', async () => {
		const xssMedia = simulator.state.media(DEMO_PRESETS.xssMediaPks[0] as string)!
		const { html } = await page(`/p/${xssMedia.code}/embed/captioned/`)
		expect(html).not.toContain('<script>')
		const privatePost = simulator.state.data.mediaByOwner.get(DEMO_PRESETS.privateAccount.pk)![0]!
		expect((await page(`/p/${privatePost.code}/embed/captioned/`)).status).toBe(404)
	})
})

describe('generated images', () => {
	it('serves an SVG placeholder for profile pictures', async () => {
		const response = await fetch(`${simulator.url}/__sim/img/u/${DEMO_PRESETS.luna.pk}.svg?s=150`)
		expect(response.headers.get('content-type')).toBe('image/svg+xml')
		expect(await response.text()).toStartWith('<svg')
	})
})
