/**
 * The UI's endpoint catalog against the server: every data endpoint the playground serves is
 * reachable from a panel, every panel endpoint exists on the server, History's re-run finds the
 * panel of a path, and the presets name records that exist in the demo data.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { collectableList } from '../../assets/playground/lib/jobs'
import { DATA_PANELS, matchRequest } from '../../assets/playground/panels/catalog'
import { THREAD } from '../../assets/playground/panels/catalog-fields'
import { API_GROUPS } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { createPlaygroundApp } from '../../src/playground/app'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'

const DATA_GROUPS =
	/^\/api\/(users|media|feed|search|stories|friendships|account|public|hashtags|notifications|direct)(\/|$)/

let simulator: Simulator
let app: ReturnType<typeof createPlaygroundApp>

beforeAll(async () => {
	simulator = await startSimulator({ port: 0 })
	app = createPlaygroundApp({
		ig: createDemoClient(simulator.url),
		demo: true,
		savedDir: '/nonexistent-smkit-ui',
		log: () => {}
	})
})

afterAll(async () => {
	await simulator?.stop()
})

/** Route paths in Elysia's `:name` form. */
const catalogPaths = () =>
	DATA_PANELS.flatMap((panel) => panel.actions.map((action) => action.path.replace(/\{(\w+)\}/g, ':$1')))

describe('catalog', () => {
	test('covers exactly the GET data endpoints the server has', () => {
		const serverPaths = app.routes
			.filter((route) => route.method === 'GET' && DATA_GROUPS.test(route.path))
			.map((route) => route.path)
		const normalise = (path: string) => path.replace(/:\w+/g, ':param')
		expect(new Set(catalogPaths().map(normalise))).toEqual(new Set(serverPaths.map(normalise)))
	})

	test('has 11 data panels and their 44 endpoints', () => {
		// One panel per API group of the client, in the client's order.
		expect(API_GROUPS).toHaveLength(11)
		expect(DATA_PANELS.map((panel) => panel.id)).toEqual([...API_GROUPS])
		expect(catalogPaths()).toHaveLength(44)
	})

	test('matches a request path back to its panel, action and values', () => {
		const match = matchRequest('/api/friendships/followers/1000000002?count=50&cursor=abc')
		expect(match?.panel.id).toBe('friendships')
		expect(match?.action.id).toBe('followers')
		expect(match?.values).toEqual({ user_pk: '1000000002', count: '50' })
		expect(matchRequest('/api/users/username/a%20b')?.values).toEqual({ username: 'a b' })
		expect(matchRequest('/api/notifications')?.action.id).toBe('raw')
		expect(matchRequest('/api/save')).toBeNull()
		const replies = matchRequest('/api/media/comments/3604652359959305880/replies/18928815347468480')
		expect(replies?.action.id).toBe('replies')
		expect(replies?.values).toEqual({ media_pk: '3604652359959305880', comment_pk: '18928815347468480' })
		expect(matchRequest('/api/media/comments/3604652359959305880')?.action.id).toBe('comments')
		// "Collect all" under comments starts a comments job; under one comment's replies, none.
		expect(collectableList('/api/media/comments/3604652359959305880?count=20')).toEqual({
			kind: 'comments',
			value: '3604652359959305880',
			byUserPk: false
		})
		expect(collectableList('/api/media/comments/3604652359959305880/replies/18928815347468480')).toBeNull()
	})

	test('presets name demo records', () => {
		// The replies example: a comment of that post with more replies than the two it shows.
		const thread = simulator.state.media(THREAD.mediaPk)
		const comment =
			thread && simulator.state.commentsOf(thread).find((entry) => entry.pk === THREAD.commentPk)
		expect(comment?.replies.length).toBeGreaterThan(2)
		const known = new Set<string>([
			THREAD.mediaPk,
			THREAD.commentPk,
			DEMO_PRESETS.viewer.username,
			DEMO_PRESETS.viewer.pk,
			DEMO_PRESETS.luna.username,
			DEMO_PRESETS.luna.pk,
			DEMO_PRESETS.privateAccount.username,
			DEMO_PRESETS.privateAccount.pk,
			DEMO_PRESETS.xss.username,
			DEMO_PRESETS.xss.pk,
			...DEMO_PRESETS.media.flatMap((media) => [media.pk, `https://www.instagram.com/p/${media.code}/`]),
			...DEMO_PRESETS.hashtags,
			DEMO_PRESETS.placeQuery,
			DEMO_PRESETS.userQuery
		])
		for (const panel of DATA_PANELS) {
			for (const action of panel.actions) {
				for (const field of action.fields) {
					if (field.in !== 'path') continue
					for (const value of [field.value, ...(field.presets ?? []).map((preset) => preset.value)]) {
						expect({
							field: `${panel.id}/${action.id}/${field.name}`,
							known: known.has(value ?? '')
						}).toEqual({
							field: `${panel.id}/${action.id}/${field.name}`,
							known: true
						})
					}
				}
			}
		}
	})

	test('no example chip or default value is the xss.payload test fixture', () => {
		const fixture = new Set<string>([
			DEMO_PRESETS.xss.username,
			DEMO_PRESETS.xss.pk,
			...DEMO_PRESETS.xssMediaPks
		])
		const shown = DATA_PANELS.flatMap((panel) =>
			panel.actions.flatMap((action) =>
				action.fields.flatMap((field) => [
					field.value,
					...(field.presets ?? []).flatMap((preset) => [preset.value, preset.label])
				])
			)
		)
		expect(shown.length).toBeGreaterThan(20)
		expect(shown.filter((value) => fixture.has(value ?? ''))).toEqual([])
	})
})
