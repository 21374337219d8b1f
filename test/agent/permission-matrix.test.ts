import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { AgentEvent } from '../../src/agent/events'
import type { ActionKind, ApprovalRequest, PermissionLevel } from '../../src/agent/permissions'
import { reply } from '../support/fake-llm'
import { type Harness, lastToolOutput, startHarness } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

const mediaPk = '3842790443716764595'
// Each action is tried on its own so one denial does not hide what the others did.
const code = `try { await ig.media.like('${mediaPk}'); console.log('liked') } catch (error) { console.log('like refused: ' + error.message) }
try { const file = await saveFile('matrix.txt', 'hello'); console.log('saved ' + file.file) } catch (error) { console.log('save refused: ' + error.message) }`

async function isLiked(): Promise<boolean> {
	return (await harness.client.media.getInfo(mediaPk)).has_liked === true
}

const levels: PermissionLevel[] = ['ask_every', 'ask_once', 'full_access']
const kinds: ActionKind[] = ['code_run', 'write_call', 'file_write']

describe('permission matrix: level x action x decision', () => {
	for (const level of levels) {
		for (const kind of kinds) {
			for (const decision of [true, false]) {
				test(`${level}: ${decision ? 'approving' : 'denying'} ${kind}`, async () => {
					await harness.client.media.unlike(mediaPk)
					expect(await isLiked()).toBe(false)
					const dir = await harness.tempDir()
					const asked: ApprovalRequest[] = []
					const approver = async (request: ApprovalRequest) => {
						asked.push(request)
						return request.kind === kind ? decision : true
					}
					harness.llm.setScript((request, index) =>
						index === 0 ? reply.code(code) : reply.text(`Saw: ${lastToolOutput(request.body)}`)
					)
					const events: AgentEvent[] = []
					const response = await harness
						.agent({ permission: level, approver, filesDir: dir })
						.ask('like and save', { onEvent: (event) => events.push(event) })
					const liked = await isLiked()
					const saved = existsSync(path.join(dir, 'matrix.txt'))

					if (level === 'full_access') {
						expect(asked).toHaveLength(0)
						expect(liked).toBe(true)
						expect(saved).toBe(true)
					} else {
						const allowed = (action: ActionKind) => action !== kind || decision
						const ran = allowed('code_run')
						expect(liked).toBe(ran && allowed('write_call'))
						expect(saved).toBe(ran && allowed('file_write'))
						expect(asked.map((request) => request.kind)).toEqual(ran ? kinds : ['code_run'])
						if (ran) {
							const write = asked.find((request) => request.kind === 'write_call')
							expect(write).toMatchObject({ method: 'media.like', args: [mediaPk] })
							expect(write?.detail).toContain(`ig.media.like("${mediaPk}")`)
							expect(asked.find((request) => request.kind === 'file_write')?.detail).toContain(
								'matrix.txt (5 bytes)'
							)
						}
						expect(asked[0].detail).toBe(code)
						if (!decision) expect(response.answer).toContain('Permission denied')
						// What the person sees: the run's result names what they denied, in their words.
						const runResult = events.find(
							(event) => event.type === 'tool_result' && event.name === 'run_code'
						) as Extract<AgentEvent, { type: 'tool_result' }>
						const expected: Record<ActionKind, string> = {
							code_run: 'run code',
							write_call: 'media.like on the account',
							file_write: 'save file matrix.txt'
						}
						expect(runResult.denied).toEqual(decision ? undefined : [expected[kind]])
					}
					expect(response.success).toBe(true)
					expect(response.files).toHaveLength(saved ? 1 : 0)
					expect(response.code).toBe(level !== 'full_access' && kind === 'code_run' && !decision ? '' : code)
				})
			}
		}
	}
})

describe('ask_once across a conversation', () => {
	test('an approval is remembered per kind until reset; a denial is asked again', async () => {
		const asked: ActionKind[] = []
		let allowCode = true
		const agent = harness.agent({
			permission: 'ask_once',
			filesDir: await harness.tempDir(),
			approver: async (request) => {
				asked.push(request.kind)
				return request.kind === 'code_run' ? allowCode : false
			}
		})
		const twoSteps = [reply.code('console.log(1)'), reply.text('done')]
		harness.llm.setScript([...twoSteps, ...twoSteps])
		await agent.ask('one')
		await agent.ask('two')
		expect(asked).toEqual(['code_run'])
		agent.reset()
		allowCode = false
		harness.llm.setScript([...twoSteps, ...twoSteps])
		await agent.ask('three')
		await agent.ask('four')
		expect(asked).toEqual(['code_run', 'code_run', 'code_run'])
	})

	test('without an approver nothing runs, even at ask_once', async () => {
		await harness.client.media.unlike(mediaPk)
		harness.llm.setScript([reply.code(code), reply.text('ok')])
		const response = await harness.agent({ permission: 'ask_once', approver: undefined }).ask('like it')
		expect(response.code).toBe('')
		expect(await isLiked()).toBe(false)
	})
})
