/**
 * The sandbox inside the compiled binary: its worker is a second entry point of
 * `bun build --compile` (package.json's build script), found inside the executable whatever the
 * working directory. `smkit ask` runs from an empty folder with a scripted model: the guest calls
 * the demo Instagram through the bridge, then spins until its timeout, and the process exits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary } from '../support/binary'
import { type FakeLlm, reply, startFakeLlm } from '../support/fake-llm'

let folder: string
let binary: string
let llm: FakeLlm

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-sandbox-bin-'))
	binary = join(folder, 'smkit')
	copyFileSync(await compiledBinary(), binary)
	llm = await startFakeLlm()
}, 120_000)
afterAll(async () => {
	await llm.stop()
	rmSync(folder, { recursive: true, force: true })
})

describe('the sandbox in the compiled binary', () => {
	it('runs guest code on its worker from an empty folder, stops a spinning guest, and exits', async () => {
		const code = `const user = await ig.users.getByUsername('luna.explorer'); console.log('pk=' + user.pk); while (true) {}`
		llm.setScript((request, index) => {
			if (index === 0) return reply.code(code)
			const tool = request.body.messages.findLast((message: { role: string }) => message.role === 'tool')
			return reply.text(`Tool said: ${tool?.content ?? 'nothing'}`)
		})
		const child = Bun.spawn(
			[
				binary,
				'ask',
				'What is luna’s pk?',
				'--demo',
				'--provider',
				'openai',
				'--base-url',
				llm.url,
				'--api-key',
				'sk-sandbox-binary',
				'--full-access',
				'--quiet',
				'--timeout',
				'1'
			],
			{
				cwd: folder,
				env: { PATH: process.env.PATH ?? '', HOME: folder, NO_COLOR: '1' },
				stdin: 'ignore',
				stdout: 'pipe',
				stderr: 'pipe'
			}
		)
		// Only a process that never exits reaches this kill; it then fails on the signal below.
		const killer = setTimeout(() => child.kill(), 30_000)
		const [stdout, stderr, exitCode] = await Promise.all([
			new Response(child.stdout).text(),
			new Response(child.stderr).text(),
			child.exited
		])
		clearTimeout(killer)
		expect(stderr).toBe('')
		expect(child.signalCode).toBeNull()
		expect(exitCode).toBe(0)
		expect(stdout).toContain('pk=1000000002')
		expect(stdout).toContain('Timed out after 1 s (the code was still running)')
		expect(stdout).not.toContain('could not load')
	}, 60_000)
})
