import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Elysia, t } from 'elysia'
import type { PlaygroundAi } from '../../src/playground/app'
import { ok } from '../../src/playground/envelope'
import { expectFailure, expectOk, type PlaygroundHarness, startPlayground } from './support'

// The AI hook: without `deps.ai` the /api/ai/* routes answer 503; with it, its routes are mounted
// behind the playground's hooks (envelopes for errors, history for asks).
let withoutAi: PlaygroundHarness
let withAi: PlaygroundHarness
const asked: string[] = []
const ai: PlaygroundAi = {
	available: true,
	provider: 'gemini',
	model: 'gemini-test',
	routes: ({ ig }) =>
		new Elysia({ prefix: '/api/ai' })
			.post(
				'/ask',
				async ({ body }) => {
					asked.push(body.message)
					const user = await ig.users.getByUsername('luna.explorer')
					return {
						success: true,
						answer: `@${user.username}`,
						code: '',
						files: [],
						steps: 1,
						tokens: 3,
						duration: 0.1,
						error: null
					}
				},
				{ body: t.Object({ message: t.String({ minLength: 1 }) }) }
			)
			.get('/history', () => ok([], 'Conversation history'))
}

beforeAll(async () => {
	withoutAi = await startPlayground()
	withAi = await startPlayground({ deps: { ai } })
})
afterAll(async () => {
	await withoutAi.stop()
	await withAi.stop()
})

describe('AI routes', () => {
	it('without AI: status says unavailable, every AI route answers the 503 ai_unavailable envelope', async () => {
		expect((await expectOk(await withoutAi.get('/api/status'))).data.ai_available).toBe(false)
		const response = await withoutAi.request('POST', '/api/ai/ask', { body: { message: 'hi' } })
		const body = await expectFailure(response, 503, 'ai_unavailable')
		expect(body.error).toContain('AI chat is not available')
		await expectFailure(await withoutAi.request('POST', '/api/ai/reset'), 503, 'ai_unavailable')
		await expectFailure(await withoutAi.get('/api/ai/history'), 503, 'ai_unavailable')
	})

	it('with AI: status reports provider and model, and its routes are served', async () => {
		const status = await expectOk(await withAi.get('/api/status'))
		expect(status.data).toMatchObject({ ai_available: true, ai_provider: 'gemini', ai_model: 'gemini-test' })
		const response = await withAi.request('POST', '/api/ai/ask', { body: { message: 'who is luna?' } })
		expect(response.status).toBe(200)
		expect((await response.json()).answer).toBe('@luna.explorer')
		expect(asked).toEqual(['who is luna?'])
	})

	it('with AI: its validation errors are envelopes, asks enter the history, history polls do not', async () => {
		await expectFailure(await withAi.request('POST', '/api/ai/ask', { body: {} }), 400, 'bad_request')
		await withAi.get('/api/ai/history')
		const history = await (await withAi.get('/api/history')).json()
		const paths = history.data.map((entry: { path: string }) => entry.path)
		expect(paths.filter((path: string) => path === '/api/ai/ask').length).toBe(2)
		expect(paths).not.toContain('/api/ai/history')
	})
})
