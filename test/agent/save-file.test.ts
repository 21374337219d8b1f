/**
 * `saveFile` through the agent: a call without `await` is still asked for, written and listed in
 * the ask's `files`; a write the folder refuses tells the model why in plain words (no absolute
 * path) and is reported to the ask's `onFileError`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { FailedFileWrite } from '../../src/agent/code-runner'
import { OutputFiles } from '../../src/agent/files'
import type { ApprovalRequest } from '../../src/agent/permissions'
import { reply } from '../support/fake-llm'
import { type Harness, lastToolOutput, startHarness, unwritableFolder } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

/** Runs `code` once through the agent; returns the response, what the model saw and the failures. */
async function runOnce(code: string, options: Parameters<Harness['agent']>[0]) {
	let shown = ''
	harness.llm.setScript((request, index) => {
		if (index === 0) return reply.code(code)
		shown = lastToolOutput(request.body)
		return reply.text('The file is saved.')
	})
	const failures: FailedFileWrite[] = []
	const response = await harness
		.agent(options)
		.ask('save a file', { onFileError: (failure) => failures.push(failure) })
	return { response, shown, failures }
}

describe('saveFile without await', () => {
	test('is asked for as before, then written and listed in the ask’s files', async () => {
		const dir = await harness.tempDir()
		const asked: ApprovalRequest[] = []
		const { response, shown } = await runOnce(`saveFile('x.txt', 'hi'); return 'saved'`, {
			filesDir: dir,
			permission: 'ask_once',
			approver: async (request) => {
				asked.push(request)
				// The approval takes a moment: the run must wait for it, not end first.
				await Bun.sleep(50)
				return true
			}
		})
		expect(asked.map((request) => request.kind)).toEqual(['code_run', 'file_write'])
		expect(readFileSync(path.join(dir, 'x.txt'), 'utf8')).toBe('hi')
		expect(response.files).toEqual([{ name: 'x.txt', file: expect.stringContaining('x.txt'), size: 2 }])
		expect(shown).toContain('Returned: "saved"')
		expect(shown).not.toContain('Error')
	})

	test('a denied write is reported to the model as not awaited and denied', async () => {
		const dir = await harness.tempDir()
		const { response, shown } = await runOnce(`saveFile('x.txt', 'hi'); return 'saved'`, {
			filesDir: dir,
			permission: 'ask_once',
			approver: async (request) => request.kind === 'code_run'
		})
		expect(response.files).toEqual([])
		expect(shown).toContain('saveFile("x.txt") was not awaited and failed: Error: Permission denied')
	})
})

describe('a folder that cannot be written', () => {
	test('the model is told why, without an absolute path, and the ask hears of it', async () => {
		const parent = await harness.tempDir()
		const folder = await unwritableFolder(parent)
		for (const code of [`await saveFile('x.txt', 'hi')`, `saveFile('x.txt', 'hi'); return 'saved'`]) {
			const { response, shown, failures } = await runOnce(code, { filesDir: folder })
			// Root may make files anywhere but in /sys, which it is told it may write to: the words differ.
			const reason =
				/cannot write x\.txt: the (folder output is not writable|file belongs to another user in the shared folder output) \(permission denied\)/
			expect(shown).toMatch(reason)
			expect(shown).not.toContain(parent)
			expect(failures).toEqual([{ name: 'x.txt', error: expect.stringMatching(reason) }])
			expect(response.files).toEqual([])
		}
	})

	test('an output folder that is a file is said to be one, not "file already exists"', async () => {
		const parent = await harness.tempDir()
		const folder = path.join(parent, 'output')
		writeFileSync(folder, 'a file where the folder should be')
		const { shown, failures } = await runOnce(`await saveFile('report.txt', 'hi')`, { filesDir: folder })
		expect(failures).toEqual([
			{ name: 'report.txt', error: 'cannot write report.txt: output is a file, not a folder' }
		])
		expect(shown).toContain('cannot write report.txt: output is a file, not a folder')
		expect(shown).not.toContain(parent)
	})

	test('system errors are worded in plain words; one naming a path keeps only its code', () => {
		const files = new OutputFiles('output', { cwd: '/srv/app' })
		const systemError = (code: string, message: string) => Object.assign(new Error(message), { code })
		expect(
			files.writeErrorMessage('a.csv', systemError('ENOSPC', "ENOSPC: no space left, open '/srv/x'"))
		).toBe('cannot write a.csv: the disk is full')
		expect(files.writeErrorMessage('a.csv', systemError('EROFS', 'EROFS: read-only file system'))).toBe(
			'cannot write a.csv: the folder output is on a read-only file system'
		)
		expect(files.writeErrorMessage('a.csv', systemError('EIO', 'EIO: i/o error on /dev/sdb1'))).toBe(
			'cannot write a.csv (EIO)'
		)
		// The folder's own path, in the system's words, becomes the name people know it by.
		expect(files.writeErrorMessage('a.csv', systemError('EIO', 'EIO: i/o error in /srv/app/output'))).toBe(
			'cannot write a.csv: EIO: i/o error in output'
		)
		expect(files.writeErrorMessage('a.csv', new Error('not a system error'))).toBe('cannot write a.csv')
	})
})
