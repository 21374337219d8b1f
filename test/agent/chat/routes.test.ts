import { describe, expect, it } from 'bun:test'
import { Elysia } from 'elysia'
import { chatRoutes } from '../../../src/agent/chat/routes'
import { unavailableChat } from '../../../src/agent/chat/setup'
import { failedAsk } from '../../../src/agent/events'
import { createAgentWebApp } from '../../../src/agentweb/app'
import { createPlayground } from '../../../src/playground/app'

const post = (path: string, body: unknown) =>
	new Request(`http://localhost${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body)
	})

describe('one chat API for both servers', () => {
	const reason = 'Set OPENAI_API_KEY'
	const routes = (responses: 'plain' | 'envelope', prefix: string) =>
		new Elysia().use(
			chatRoutes({
				chat: unavailableChat(reason),
				prefix,
				responses,
				log: () => {},
				server: 'test',
				tag: 'Chat'
			})
		)

	it('without a provider, an ask answers 503: the failed ask response (plain), the ai_unavailable envelope (envelope)', async () => {
		const plain = await routes('plain', '/api').handle(post('/api/ask', { message: 'hi' }))
		expect(plain.status).toBe(503)
		expect(await plain.json()).toMatchObject(failedAsk(reason))
		for (const path of ['/api/ai/ask', '/api/ai/ask/stream']) {
			const envelope = await routes('envelope', '/api/ai').handle(post(path, { message: 'hi' }))
			expect(envelope.status).toBe(503)
			expect(await envelope.json()).toMatchObject({ success: false, code: 'ai_unavailable', error: reason })
		}
	})

	it('history answers in each server shape', async () => {
		const plain = await routes('plain', '/api').handle(new Request('http://localhost/api/history'))
		expect(await plain.json()).toEqual({ history: [] })
		const envelope = await routes('envelope', '/api/ai').handle(
			new Request('http://localhost/api/ai/history')
		)
		expect(envelope.status).toBe(503)
		expect(await envelope.json()).toMatchObject({ success: false, code: 'ai_unavailable', error: reason })
	})

	it('the agent web server maps errors with the shared mapping and logs them redacted', async () => {
		const lines: string[] = []
		const app = createAgentWebApp({ chat: unavailableChat(reason), log: (line) => lines.push(line) }).get(
			'/api/boom',
			() => {
				throw new Error('upstream said sessionid=abc123xyz')
			}
		)
		const boom = await app.handle(new Request('http://localhost/api/boom'))
		expect(boom.status).toBe(500)
		expect(await boom.json()).toEqual({ success: false, error: 'Internal server error' })
		expect(lines.join('\n')).toContain('[agent-web] GET /api/boom failed')
		expect(lines.join('\n')).not.toContain('abc123xyz')
		const approve = await app.handle(post('/api/approve', { id: 'x', allow: 'yes' }))
		expect(approve.status).toBe(400)
		expect(await approve.json()).toEqual({
			success: false,
			error: "Body field 'allow' must be true or false"
		})
	})

	it('the playground API reference describes the chat bodies', async () => {
		const { app } = createPlayground({ envPath: '/nonexistent/.env' })
		const document = await (await app.handle(new Request('http://localhost/openapi/json'))).json()
		// Named bodies are components, referenced by $ref.
		const bodyOf = (path: string) => {
			const schema = document.paths[path].post.requestBody.content['application/json'].schema
			return schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema
		}
		expect(bodyOf('/api/ai/ask')).toMatchObject({
			required: ['message'],
			properties: { message: { maxLength: 8000 } }
		})
		expect(bodyOf('/api/ai/ask/stream').required).toEqual(['message'])
		expect(bodyOf('/api/ai/approve')).toMatchObject({
			required: ['id', 'allow'],
			properties: { allow: { type: 'boolean' } }
		})
	})
})
