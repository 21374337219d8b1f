import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { lastToolOutput } from '../agent/harness'
import { reply } from '../support/fake-llm'
import { type ChatHarness, EventReader, followLuna, jsonRequest, lunaPk, startChatHarness } from './support'

// Approvals in the browser (docs/architecture.md, "The agent"): a streaming ask emits `permission`
// events and waits for POST /api/approve; nothing runs without a decision; a JSON ask has nobody to ask and says so.
let harness: ChatHarness
beforeAll(async () => {
	harness = await startChatHarness()
})
afterAll(() => harness.stop())

const unfollowLuna = async () => {
	await harness.client.friendships.unfollow(lunaPk)
	expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
}

/** The model runs `followLuna`, then answers with what the code printed. */
const followScript = () =>
	harness.llm.setScript((request, index) =>
		index === 0
			? reply.code(followLuna, { description: 'Follow luna' })
			: reply.text(`Result: ${lastToolOutput(request.body)}`)
	)

describe('streaming asks under ask_every', () => {
	test('approving the code and the write lets the follow happen', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_every' })
		followScript()
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'Follow luna' }))
		)
		const codeRequest = await reader.until((event) => event.type === 'permission')
		expect(codeRequest).toMatchObject({ kind: 'code_run', detail: followLuna, timeout_seconds: 120 })
		// Nothing ran while the card waits.
		expect(reader.events.some((event) => event.type === 'code')).toBe(false)
		const approved = await app.handle(
			jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: true })
		)
		expect(await approved.json()).toEqual({ success: true, id: codeRequest.id, allow: true })
		const writeRequest = await reader.until((event) => event.type === 'permission')
		expect(writeRequest).toMatchObject({ kind: 'write_call', method: 'friendships.follow', args: [lunaPk] })
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
		await app.handle(jsonRequest('POST', '/api/approve', { id: writeRequest.id, allow: true }))
		const events = await reader.all()
		const outcomes = events.filter((event) => event.permission_id).map((event) => event.outcome)
		expect(outcomes).toEqual(['approved', 'approved'])
		expect(events.at(-1)).toMatchObject({ type: 'done', success: true })
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)
		// A decided request cannot be decided again.
		const again = await app.handle(jsonRequest('POST', '/api/approve', { id: writeRequest.id, allow: false }))
		expect(again.status).toBe(404)
		expect((await again.json()).error).toContain('No permission request with this id is waiting')
	})

	test('denying the write keeps the account unchanged and tells the model', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_every' })
		followScript()
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'Follow luna' }))
		)
		const codeRequest = await reader.until((event) => event.type === 'permission')
		await app.handle(jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: true }))
		const writeRequest = await reader.until((event) => event.type === 'permission')
		await app.handle(jsonRequest('POST', '/api/approve', { id: writeRequest.id, allow: false }))
		const events = await reader.all()
		expect(events.find((event) => event.permission_id === writeRequest.id)?.outcome).toBe('denied')
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
		expect(lastToolOutput(harness.llm.chatRequests().at(-1)?.body)).toContain('Permission denied')
	})

	test('denying the code means it never runs', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_every' })
		followScript()
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'Follow luna' }))
		)
		const codeRequest = await reader.until((event) => event.type === 'permission')
		await app.handle(jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: false }))
		const events = await reader.all()
		expect(events.some((event) => event.type === 'code')).toBe(false)
		expect(events.filter((event) => event.type === 'permission')).toHaveLength(1)
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
	})

	test('no decision within the time-out denies the action', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_every', approvalTimeoutMs: 200 })
		followScript()
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'Follow luna' }))
		)
		const codeRequest = await reader.until((event) => event.type === 'permission')
		expect(codeRequest.timeout_seconds).toBe(0.2)
		const events = await reader.all()
		expect(events.find((event) => event.permission_id === codeRequest.id)).toMatchObject({
			type: 'status',
			outcome: 'timed_out'
		})
		expect(events.some((event) => event.type === 'code')).toBe(false)
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
		const late = await app.handle(jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: true }))
		expect(late.status).toBe(404)
	})

	test('a write still waiting when its run times out is cancelled, and a late approval does not run it', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_every', timeoutSeconds: 1 })
		followScript()
		const reader = new EventReader(
			await app.handle(jsonRequest('POST', '/api/ask/stream', { message: 'Follow luna' }))
		)
		const codeRequest = await reader.until((event) => event.type === 'permission')
		await app.handle(jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: true }))
		expect(codeRequest.timeout_seconds).toBe(120)
		const writeRequest = await reader.until((event) => event.type === 'permission')
		expect(writeRequest.kind).toBe('write_call')
		// The card counts down to the end of the run (1 s), not to the 120 s of an approval.
		expect(writeRequest.timeout_seconds).toBeLessThanOrEqual(1)
		expect(writeRequest.expiresAt).toBeUndefined()
		// The person decides after the run's 1 s: the run has already told the model it timed out.
		const ran = await reader.until((event) => event.type === 'tool_result' && event.source === 'model')
		expect(ran.output).toContain('Timed out')
		expect(reader.events.find((event) => event.permission_id === writeRequest.id)?.outcome).toBe('cancelled')
		const late = await app.handle(jsonRequest('POST', '/api/approve', { id: writeRequest.id, allow: true }))
		expect(late.status).toBe(404)
		await reader.all()
		await Bun.sleep(50)
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
	})

	test('approve validates its body', async () => {
		const app = harness.agentWeb({ permission: 'ask_every' })
		const missing = await app.handle(jsonRequest('POST', '/api/approve', { id: 'x' }))
		expect(missing.status).toBe(400)
		expect((await missing.json()).error).toContain("'allow' must be true or false")
		const unknown = await app.handle(jsonRequest('POST', '/api/approve', { id: 'nope', allow: true }))
		expect(unknown.status).toBe(404)
	})
})

describe('ask_once', () => {
	test('an approval is remembered per kind for the conversation, until reset', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_once' })
		const readOnly = 'console.log(1)'
		const ask = async (message: string) =>
			new EventReader(await app.handle(jsonRequest('POST', '/api/ask/stream', { message })))
		harness.llm.setScript((_request, index) => (index % 2 === 0 ? reply.code(readOnly) : reply.text('ok')))
		const first = await ask('one')
		const request = await first.until((event) => event.type === 'permission')
		await app.handle(jsonRequest('POST', '/api/approve', { id: request.id, allow: true }))
		await first.all()
		harness.llm.setScript((_request, index) => (index % 2 === 0 ? reply.code(readOnly) : reply.text('ok')))
		const second = await (await ask('two')).all()
		expect(second.some((event) => event.type === 'permission')).toBe(false)
		expect(second.some((event) => event.type === 'code')).toBe(true)
		await app.handle(jsonRequest('POST', '/api/reset'))
		harness.llm.setScript((_request, index) => (index % 2 === 0 ? reply.code(readOnly) : reply.text('ok')))
		const third = await ask('three')
		// Reset forgot the approval: the same kind of action is asked about again.
		const asked = await third.until((event) => event.type === 'permission')
		expect(asked.kind).toBe('code_run')
		await app.handle(jsonRequest('POST', '/api/approve', { id: asked.id, allow: false }))
		await third.all()
	})
})

describe('saveFile from the browser', () => {
	test('a file write waits for the browser, is written once approved, and is remembered under ask_once', async () => {
		const app = harness.agentWeb({ permission: 'ask_once' })
		const ask = async (message: string, name: string) => {
			harness.llm.setScript((request, index) =>
				index === 0
					? reply.code(`return (await saveFile('${name}', 'name,likes\\nluna,3')).name`)
					: reply.text(`Saved: ${lastToolOutput(request.body)}`)
			)
			return new EventReader(await app.handle(jsonRequest('POST', '/api/ask/stream', { message })))
		}
		const first = await ask('save a report', 'first-report.csv')
		const codeRequest = await first.until((event) => event.type === 'permission')
		expect(codeRequest.kind).toBe('code_run')
		await app.handle(jsonRequest('POST', '/api/approve', { id: codeRequest.id, allow: true }))
		const fileRequest = await first.until((event) => event.type === 'permission')
		expect(fileRequest).toMatchObject({ kind: 'file_write', title: 'Write file first-report.csv' })
		// The card waits for the person: its id can be decided.
		const approved = await app.handle(
			jsonRequest('POST', '/api/approve', { id: fileRequest.id, allow: true })
		)
		expect(approved.status).toBe(200)
		const events = await first.all()
		expect(events.filter((event) => event.permission_id).map((event) => event.outcome)).toEqual([
			'approved',
			'approved'
		])
		expect(events.at(-1)).toMatchObject({
			type: 'done',
			success: true,
			files: [{ name: 'first-report.csv' }]
		})
		expect(readFileSync(path.join(harness.filesDir, 'first-report.csv'), 'utf8')).toBe('name,likes\nluna,3')

		// ask_once: writing files was approved for this conversation.
		const second = await (await ask('another report', 'second-report.csv')).all()
		expect(second.some((event) => event.type === 'permission')).toBe(false)
		expect(second.at(-1)).toMatchObject({ success: true, files: [{ name: 'second-report.csv' }] })
	})
})

describe('ask_once approvals cover one write method, and never a JSON ask', () => {
	/** A streaming ask whose every card is approved; resolves to its events. */
	const approvedStream = async (app: ReturnType<ChatHarness['agentWeb']>, message: string) => {
		const reader = new EventReader(await app.handle(jsonRequest('POST', '/api/ask/stream', { message })))
		for (;;) {
			const next = await reader.until((event) => event.type === 'permission').catch(() => undefined)
			if (!next) return reader.events
			await app.handle(jsonRequest('POST', '/api/approve', { id: next.id, allow: true }))
		}
	}

	test('a follow approved in the browser does not let a later JSON ask follow', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_once' })
		followScript()
		const events = await approvedStream(app, 'Follow luna')
		expect(events.filter((event) => event.type === 'permission').map((event) => event.kind)).toEqual([
			'code_run',
			'write_call'
		])
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)
		await unfollowLuna()
		followScript()
		const body = await (await app.handle(jsonRequest('POST', '/api/ask', { message: 'Follow luna' }))).json()
		expect(body.success).toBe(false)
		expect(body.error).toContain('1 action needed approval and was denied')
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
	})

	test('a remembered follow does not approve an unfollow, and a message is asked every time', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'ask_once' })
		followScript()
		await approvedStream(app, 'Follow luna')
		const writes = [
			`await ig.friendships.unfollow('${lunaPk}')`,
			`await ig.direct.sendText('${lunaPk}', 'hello')`,
			`await ig.direct.sendText('${lunaPk}', 'hello again')`
		]
		harness.llm.setScript((_request, index) =>
			index === 0 ? reply.code(writes.join('\n')) : reply.text('ok')
		)
		const events = await approvedStream(app, 'Unfollow luna and write to her twice')
		const asked = events.filter((event) => event.type === 'permission').map((event) => event.method)
		expect(asked).toEqual(['friendships.unfollow', 'direct.sendText', 'direct.sendText'])
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
	})
})

describe('a JSON ask has nobody to ask', () => {
	test('its actions are denied and the error says to use the browser or --permission full_access', async () => {
		await unfollowLuna()
		for (const permission of ['ask_every', 'ask_once'] as const) {
			const app = harness.agentWeb({ permission })
			followScript()
			const response = await app.handle(jsonRequest('POST', '/api/ask', { message: 'Follow luna' }))
			const body = await response.json()
			expect(body.success).toBe(false)
			expect(body.error).toContain('1 action needed approval and was denied')
			expect(body.error).toContain('chat page in a browser')
			expect(body.error).toContain('--permission full_access')
			expect(harness.simulator.state.isFollowing(lunaPk)).toBe(false)
		}
	})

	test('with full_access the same ask follows without asking', async () => {
		await unfollowLuna()
		const app = harness.agentWeb({ permission: 'full_access' })
		followScript()
		const body = await (await app.handle(jsonRequest('POST', '/api/ask', { message: 'Follow luna' }))).json()
		expect(body).toMatchObject({ success: true, error: null })
		expect(harness.simulator.state.isFollowing(lunaPk)).toBe(true)
		await unfollowLuna()
	})
})
