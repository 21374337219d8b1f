/**
 * The terminal approver's "always": it covers what an `ask_once` approval covers (running code,
 * writing files, one write method), never a comment or a message, which are asked every time.
 */
import { describe, expect, test } from 'bun:test'
import { createTerminalApprover } from '../../src/agent/ask-approver'
import type { ApprovalRequest } from '../../src/agent/permissions'

function write(method: string): ApprovalRequest {
	return { id: method, kind: 'write_call', title: `Write call: ${method}`, detail: method, method }
}

/** An approver answering from `answers` in order; records each question asked. */
function scripted(answers: string[], offerAlways?: boolean) {
	const asked: string[] = []
	const terminal = createTerminalApprover({
		prompt: async (question) => {
			asked.push(question)
			return answers.shift() ?? null
		},
		offerAlways
	})
	return { terminal, asked }
}

test('under ask_every no "always" is offered or kept: the same like is asked again', async () => {
	const { terminal, asked } = scripted(['a', 'y', 'y', 'y'], false)
	const code = { id: 'c', kind: 'code_run', title: 'Run generated code', detail: 'return 1' } as const
	expect(await terminal.approver(write('media.like'))).toBe(true)
	expect(await terminal.approver(write('media.like'))).toBe(true)
	expect(await terminal.approver(code)).toBe(true)
	expect(asked).toHaveLength(4)
	for (const question of asked) expect(question).not.toContain('[a]lways')
})

test('"always" to a like approves later likes only: a follow, a comment and a message are asked', async () => {
	const { terminal, asked } = scripted(['a', 'y', 'y', 'y'])
	const { approver } = terminal
	expect(await approver(write('media.like'))).toBe(true)
	expect(asked).toHaveLength(1)
	expect(await approver(write('media.like'))).toBe(true)
	expect(asked).toHaveLength(1)
	for (const method of ['friendships.follow', 'media.comment', 'direct.sendText'])
		expect(await approver(write(method))).toBe(true)
	expect(asked).toHaveLength(4)
})

test('comments and messages offer no "always", and an "always" answer is asked again', async () => {
	const { terminal, asked } = scripted(['a', 'y', 'always', 'n', 'y'])
	const { approver } = terminal
	expect(await approver(write('media.comment'))).toBe(true)
	expect(asked).toHaveLength(2)
	expect(asked[0]).not.toContain('[a]lways')
	expect(await approver(write('direct.sendText'))).toBe(false)
	expect(asked).toHaveLength(4)
	// Nothing was remembered: the next comment is asked again.
	expect(await approver(write('media.comment'))).toBe(true)
	expect(asked).toHaveLength(5)
})

test('"always" to running code covers running code, not writes; reset forgets it', async () => {
	const { terminal, asked } = scripted(['a', 'n', 'y'])
	const run: ApprovalRequest = { id: 'run', kind: 'code_run', title: 'Run generated code', detail: 'x' }
	expect(await terminal.approver(run)).toBe(true)
	expect(await terminal.approver({ ...run, id: 'run-2' })).toBe(true)
	expect(asked).toHaveLength(1)
	expect(await terminal.approver(write('media.like'))).toBe(false)
	expect(asked).toHaveLength(2)
	terminal.reset()
	expect(await terminal.approver(run)).toBe(true)
	expect(asked).toHaveLength(3)
})

describe('tasks of a parallel ask', () => {
	/** Runs `body` with standard error captured; returns what was written. */
	async function capturingStderr(body: (written: string[]) => Promise<void>): Promise<string[]> {
		const written: string[] = []
		const original = process.stderr.write
		process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof original
		try {
			await body(written)
		} finally {
			process.stderr.write = original
		}
		return written
	}

	test('a prompt names its task, and a line said while it waits comes after the answer', async () => {
		let answer: (line: string) => void = () => {}
		const asked: string[] = []
		const terminal = createTerminalApprover({
			prompt: (question) => {
				asked.push(question)
				return new Promise((resolve) => {
					answer = resolve
				})
			}
		})
		const run = { id: 'c', kind: 'code_run', title: 'Run generated code', detail: 'return 1' } as const
		const written = await capturingStderr(async (lines) => {
			const decision = terminal.forTask(2).approver(run)
			await Bun.sleep(0)
			terminal.say('  ✅ Task 1: done')
			expect(lines.join('')).not.toContain('Task 1: done')
			answer('y')
			expect(await decision).toBe(true)
			terminal.say('  ✅ Task 3: done')
		})
		expect(written.join('')).toContain('⚠ Task 2 wants to run code: Run generated code')
		// Without its bold, should the tests run on a terminal.
		expect(asked.map((question) => question.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual([
			'Allow task 2? [y]es / [n]o / [a]lways: '
		])
		expect(written.slice(-2)).toEqual(['  ✅ Task 1: done\n', '  ✅ Task 3: done\n'])
	})

	test('without a terminal each task counts its own denials, named in the notice', async () => {
		const notices: string[] = []
		const terminal = createTerminalApprover({ prompt: null, notify: (message) => notices.push(message) })
		const first = terminal.forTask(1)
		const second = terminal.forTask(2)
		expect(await first.approver(write('media.like'))).toBe(false)
		expect(first.deniedKinds()).toEqual(['WRITE ON THE ACCOUNT'])
		expect(second.deniedKinds()).toEqual([])
		expect(terminal.deniedKinds()).toEqual(['WRITE ON THE ACCOUNT'])
		expect(notices[0]).toContain(
			'smkit: Task 1: permission denied (no terminal to ask): Write call: media.like'
		)
	})
})
