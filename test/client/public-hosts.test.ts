import { describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'

type Sent = { url: URL; headers: Headers; body: string }

/**
 * A fake `fetch` standing in for instagram.com (no network): the web profile lists no posts although
 * the account has some, the GraphQL timeline fails, and only the mobile feed answers.
 */
function fakeInstagram(sent: Sent[]) {
	return async (url: URL, init: RequestInit) => {
		sent.push({ url, headers: new Headers(init.headers), body: String(init.body ?? '') })
		if (url.pathname === '/api/v1/users/web_profile_info/')
			return Response.json({
				data: {
					user: { id: '25025320', username: 'nasa', edge_owner_to_timeline_media: { count: 4, edges: [] } }
				},
				status: 'ok'
			})
		if (url.pathname.startsWith('/graphql/query')) return Response.json({ message: 'oops' }, { status: 500 })
		if (url.pathname === '/api/v1/feed/user/25025320/')
			return new Response(
				'{"items":[{"pk":3842790443716764595,"code":"DVUVYxwAOOz","media_type":1,"user":{"pk":25025320,"username":"nasa"}}],"more_available":false,"status":"ok"}'
			)
		return Response.json({ message: 'unexpected' }, { status: 404 })
	}
}

describe('public group hosts and app ids', () => {
	it('uses i.instagram.com with the mobile app id for the mobile feed on real Instagram', async () => {
		const sent: Sent[] = []
		const ig = new InstagramClient({
			baseURL: 'https://www.instagram.com',
			fetch: fakeInstagram(sent),
			maxRetries: 0,
			rateLimits: false
		})
		const page = await ig.public.getPosts('nasa')
		expect(page.items.map((media) => media.pk)).toEqual(['3842790443716764595'])
		const mobile = sent.find((request) => request.url.pathname.startsWith('/api/v1/feed/user/'))
		expect(mobile?.url.origin).toBe('https://i.instagram.com')
		expect(mobile?.headers.get('x-ig-app-id')).toBe('936619743392459')
		const web = sent.find((request) => request.url.pathname === '/api/v1/users/web_profile_info/')
		expect(web?.url.origin).toBe('https://www.instagram.com')
		expect(web?.headers.get('x-ig-app-id')).toBe('1217981644879628')
		for (const request of sent) expect(request.headers.get('cookie')).toBeNull()
	})

	it('sends every public request to a replaced baseURL, mobile included', async () => {
		const sent: Sent[] = []
		const ig = new InstagramClient({
			baseURL: 'http://127.0.0.1:9',
			fetch: fakeInstagram(sent),
			maxRetries: 0,
			rateLimits: false
		})
		await ig.public.getPosts('nasa')
		expect(new Set(sent.map((request) => request.url.origin))).toEqual(new Set(['http://127.0.0.1:9']))
	})
})

describe('saved feed cursor', () => {
	it('sends the cursor back as `after`', async () => {
		const sent: Sent[] = []
		const ig = new InstagramClient({
			baseURL: 'https://www.instagram.com',
			credentials: { sessionId: 's', csrfToken: 'c', dsUserId: '1' },
			rateLimits: false,
			fetch: async (url, init) => {
				sent.push({ url, headers: new Headers(init.headers), body: String(init.body ?? '') })
				return Response.json({
					data: {
						xdt_api__v1__collections__list_graphql_connection: {
							edges: [
								{
									node: {
										collection_id: '17900000000000009',
										collection_name: 'Trips',
										collection_media_count: 3
									}
								}
							],
							page_info: { has_next_page: true, end_cursor: 'NEXT' }
						}
					},
					status: 'ok'
				})
			}
		})
		const first = await ig.feed.getSaved()
		expect(first.next_cursor).toBe('g:NEXT')
		await ig.feed.getSaved({ cursor: first.next_cursor })
		const variables = JSON.parse(new URLSearchParams(sent.at(-1)?.body).get('variables') ?? '{}')
		expect(variables.after).toBe('NEXT')
	})
})

describe('anonymous headers', () => {
	it('rotate through three desktop user agents, request after request, and never carry a cookie', async () => {
		const sent: Sent[] = []
		const ig = new InstagramClient({
			baseURL: 'https://www.instagram.com',
			credentials: { sessionId: 'sess-1', csrfToken: 'csrf-1', dsUserId: '1' },
			fetch: fakeInstagram(sent),
			maxRetries: 0,
			rateLimits: false
		})
		for (let index = 0; index < 4; index++) await ig.public.getProfile('nasa')
		const agents = sent.map((request) => request.headers.get('user-agent'))
		expect(agents).toHaveLength(4)
		expect(new Set(agents.slice(0, 3)).size).toBe(3)
		expect(agents[3]).toBe(agents[0])
		for (const request of sent) expect(request.headers.get('cookie')).toBeNull()
	})
})
