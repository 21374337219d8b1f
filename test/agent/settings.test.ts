import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { setupChat } from '../../src/agent/chat/setup'
import { AGENT_DEFAULTS, type AgentSettings, agentSettingsOf } from '../../src/agent/settings'
import { createAgentFromOptions } from '../../src/agent/setup'
import { reply } from '../support/fake-llm'
import { type Harness, startHarness, testApiKey } from './harness'

let harness: Harness
beforeAll(async () => {
	harness = await startHarness()
})
afterAll(() => harness.stop())

describe('AgentSettings', () => {
	test('agentSettingsOf keeps every given setting and nothing else', () => {
		const settings: Required<AgentSettings> = {
			permission: 'ask_every',
			maxSteps: 4,
			timeoutSeconds: 9,
			filesDir: 'somewhere',
			historyTokenBudget: 1234,
			approvalTimeoutMs: 5000,
			concurrency: 2,
			modelOptions: { maxRetries: 1 }
		}
		expect(agentSettingsOf({ ...settings, provider: 'openai', apiKey: 'secret' } as AgentSettings)).toEqual(
			settings
		)
		expect(agentSettingsOf({ maxSteps: undefined, concurrency: 1 })).toEqual({ concurrency: 1 })
	})

	test('defaults are the documented ones', () => {
		expect(AGENT_DEFAULTS).toEqual({
			permission: 'ask_once',
			maxSteps: 15,
			timeoutSeconds: 30,
			filesDir: 'output',
			historyTokenBudget: 32_000,
			approvalTimeoutMs: 120_000,
			concurrency: 3
		})
	})

	const provider = () => ({
		provider: 'openai',
		apiKey: testApiKey,
		baseURL: harness.llm.url,
		model: 'fake-model'
	})

	test('settings given to a server chat reach its agent', async () => {
		harness.llm.setScript(() => reply.code('console.log(1)', { text: 'still counting' }))
		const chat = setupChat(
			{
				client: harness.client,
				...provider(),
				permission: 'full_access',
				maxSteps: 1,
				modelOptions: { maxRetries: 0 }
			},
			'hint'
		)
		const response = await chat.session!.ask('count forever', { approvals: 'none' })
		expect(response.steps).toBe(1)
		expect(response.success).toBe(false)
	})

	test('settings given to the command-line set-up reach its agent', async () => {
		harness.llm.setScript(() => reply.code('console.log(1)', { text: 'still counting' }))
		const agent = createAgentFromOptions({
			client: harness.client,
			...provider(),
			permission: 'full_access',
			maxSteps: 2,
			modelOptions: { maxRetries: 0 }
		})
		const response = await agent.ask('count forever')
		expect(response.steps).toBe(2)
		expect(response.success).toBe(false)
	})
})
