import { describe, expect, test } from 'bun:test'
import type { AgentEvent } from '../../src/agent/events'
import {
	type ApprovalRequest,
	createDeferredApprover,
	PermissionGate,
	parsePermissionLevel
} from '../../src/agent/permissions'

const codeRun = { kind: 'code_run' as const, title: 'Run generated code', detail: 'return 1' }
const like = {
	kind: 'write_call' as const,
	title: 'Write call: media.like',
	detail: 'ig.media.like("1")',
	method: 'media.like',
	args: ['1']
}

function recordingApprover(answers: boolean[]) {
	const asked: ApprovalRequest[] = []
	return {
		asked,
		approver: async (request: ApprovalRequest) => {
			asked.push(request)
			return answers.shift() ?? false
		}
	}
}

describe('PermissionGate', () => {
	test('parses only the three levels', () => {
		expect(parsePermissionLevel('ask_once')).toBe('ask_once')
		expect(parsePermissionLevel('full')).toBeUndefined()
	})

	test('ask_every asks before every action, even after approvals', async () => {
		const { asked, approver } = recordingApprover([true, true, false])
		const gate = new PermissionGate({ level: 'ask_every', approver })
		expect(await gate.check(codeRun)).toBe(true)
		expect(await gate.check(codeRun)).toBe(true)
		expect(await gate.check(codeRun)).toBe(false)
		expect(asked).toHaveLength(3)
	})

	test('ask_once remembers an approval per kind; a denial applies to that action only; reset forgets', async () => {
		const { asked, approver } = recordingApprover([false, true, true, true])
		const gate = new PermissionGate({ level: 'ask_once', approver })
		expect(await gate.check(codeRun)).toBe(false)
		expect(await gate.check(codeRun)).toBe(true)
		expect(await gate.check(codeRun)).toBe(true)
		expect(asked).toHaveLength(2)
		expect(await gate.check(like)).toBe(true)
		expect(asked.at(-1)?.kind).toBe('write_call')
		gate.reset()
		expect(await gate.check(codeRun)).toBe(true)
		expect(asked).toHaveLength(4)
	})

	test('ask_once: an approved write covers that method only; messages and comments ask every time', async () => {
		const { asked, approver } = recordingApprover(Array(10).fill(true))
		const gate = new PermissionGate({ level: 'ask_once', approver })
		const write = (method: string) => ({
			kind: 'write_call' as const,
			title: method,
			detail: '',
			method,
			args: ['1']
		})
		expect(await gate.check(write('media.like'))).toBe(true)
		expect(await gate.check(write('media.like'))).toBe(true)
		expect(asked).toHaveLength(1)
		expect(await gate.check(write('friendships.follow'))).toBe(true)
		expect(asked).toHaveLength(2)
		for (const method of ['direct.sendText', 'direct.sendText', 'media.comment', 'media.comment']) {
			await gate.check(write(method))
		}
		expect(asked.map((request) => request.method).slice(2)).toEqual([
			'direct.sendText',
			'direct.sendText',
			'media.comment',
			'media.comment'
		])
	})

	test('ask_once: remembered write approvals apply only where remembersFor allows', async () => {
		const { asked, approver } = recordingApprover(Array(10).fill(true))
		const watched = new AbortController().signal
		const gate = new PermissionGate({
			level: 'ask_once',
			approver,
			remembersFor: (context) => context.signal === watched
		})
		expect(await gate.check(like, { signal: watched })).toBe(true)
		expect(await gate.check(codeRun, { signal: watched })).toBe(true)
		expect(asked).toHaveLength(2)
		// Another ask, nobody watching: the write is asked again (and this approver would answer).
		await gate.check(like)
		expect(asked).toHaveLength(3)
		// Running code is not a write: its approval still stands.
		await gate.check(codeRun)
		expect(asked).toHaveLength(3)
	})

	test('full_access never asks; without an approver nothing is approved', async () => {
		const { asked, approver } = recordingApprover([])
		expect(await new PermissionGate({ level: 'full_access', approver }).check(like)).toBe(true)
		expect(asked).toHaveLength(0)
		expect(await new PermissionGate({ level: 'ask_once' }).check(codeRun)).toBe(false)
	})

	test('emits a permission event carrying the request, and a throwing approver denies', async () => {
		const events: AgentEvent[] = []
		const gate = new PermissionGate({
			level: 'ask_every',
			approver: async () => {
				throw new Error('display broke')
			}
		})
		expect(await gate.check(like, { onEvent: (event) => events.push(event) })).toBe(false)
		expect(events).toHaveLength(1)
		expect(events[0]).toMatchObject({
			type: 'permission',
			kind: 'write_call',
			method: 'media.like',
			args: ['1']
		})
	})
})

describe('createDeferredApprover', () => {
	test('waits for decide(id, allow) and lists pending requests', async () => {
		const seen: ApprovalRequest[] = []
		const deferred = createDeferredApprover({ onRequest: (request) => seen.push(request) })
		const gate = new PermissionGate({ level: 'ask_every', approver: deferred.approver })
		const decision = gate.check(codeRun)
		await Bun.sleep(0)
		expect(deferred.pending()).toHaveLength(1)
		expect(deferred.decide('unknown', true)).toBe(false)
		expect(deferred.decide(seen[0].id, true)).toBe(true)
		expect(await decision).toBe(true)
		expect(deferred.pending()).toHaveLength(0)
		expect(deferred.decide(seen[0].id, false)).toBe(false)
	})

	test('denies when no decision arrives in time, on abort, and on denyAll', async () => {
		const deferred = createDeferredApprover({ timeoutMs: 20 })
		const gate = new PermissionGate({ level: 'ask_every', approver: deferred.approver })
		expect(await gate.check(codeRun)).toBe(false)
		const controller = new AbortController()
		const aborted = gate.check(codeRun, { signal: controller.signal })
		controller.abort()
		expect(await aborted).toBe(false)
		const slow = createDeferredApprover({ timeoutMs: 60_000 })
		const pending = new PermissionGate({ level: 'ask_every', approver: slow.approver }).check(like)
		await Bun.sleep(0)
		slow.denyAll()
		expect(await pending).toBe(false)
	})
})
