/**
 * Section 5: agent overhead per step. A scripted OpenAI-compatible model (the test suite's fake
 * server, answering at once) makes the agent run trivial code three times and then answer; all the
 * time an ask takes is then the agent's own: prompt and history handling, the SDK call over
 * loopback, permission check, a fresh sandbox run, events. The model calls are timed separately
 * (a wrapper around the chat model), which gives the reference: the model round trip alone.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Agent } from '../../src/agent/agent'
import { type ChatModel, createChatModel } from '../../src/agent/model'
import { resolveProvider } from '../../src/agent/providers'
import type { InstagramClient } from '../../src/client/client'
import { type FakeReply, reply, startFakeLlm } from '../../test/support/fake-llm'
import { median } from '../lib/stats'

/** Timings of the agent section, milliseconds. */
export interface AgentFigures {
	/** Ask duration divided by its steps (model answering at once), median over asks. */
	stepMs: number
	/** Time inside the model call per step (SDK, loopback HTTP, fake server). */
	modelCallMs: number
	/** Per step without the model call: the loop, the sandbox run, history, events. */
	stepWithoutModelMs: number
	stepsPerAsk: number
	asks: number
	/** Per-step time of each ask. */
	samples: number[]
}

const CODE_STEPS = 3

/** The script of one ask: three trivial `run_code` calls, then the answer. */
function askScript(index: number): FakeReply {
	const step = index % (CODE_STEPS + 1)
	return step < CODE_STEPS
		? reply.code(`const values = [1, 2, 3]\nconsole.log(values.map((value) => value * ${step + 2}))`)
		: reply.text('All three runs printed their values.')
}

/** Runs `asks` asks (plus warm-up) on one agent, resetting the conversation between asks. */
export async function benchAgent(client: InstagramClient, options: { asks: number }): Promise<AgentFigures> {
	const llm = await startFakeLlm({ script: (_request, index) => askScript(index) })
	const filesDir = await mkdtemp(path.join(tmpdir(), 'smkit-bench-agent-'))
	try {
		const provider = resolveProvider({
			provider: 'openai',
			apiKey: 'bench-key',
			baseURL: llm.url,
			model: 'fake-model'
		})
		const inner = createChatModel(provider, { maxRetries: 0, timeoutMs: 10_000 })
		let modelMs = 0
		const timed: ChatModel = {
			provider: inner.provider,
			async complete(request) {
				const started = performance.now()
				try {
					return await inner.complete(request)
				} finally {
					modelMs += performance.now() - started
				}
			}
		}
		const agent = new Agent({ client, provider, chatModel: timed, permission: 'full_access', filesDir })
		const perStep: number[] = []
		const modelPerStep: number[] = []
		for (let ask = -3; ask < options.asks; ask++) {
			agent.reset()
			llm.setScript((_request, index) => askScript(index))
			modelMs = 0
			const started = performance.now()
			const response = await agent.ask('Run the three snippets and tell me when done.')
			const elapsed = performance.now() - started
			if (!response.success || response.steps !== CODE_STEPS + 1) {
				throw new Error(`agent ask failed: ${response.error ?? `${response.steps} steps`}`)
			}
			// The first asks warm up the JIT, the SDK's connection and the sandbox pool.
			if (ask < 0) continue
			perStep.push(elapsed / response.steps)
			modelPerStep.push(modelMs / response.steps)
		}
		const stepMs = median(perStep)
		const modelCallMs = median(modelPerStep)
		return {
			stepMs,
			modelCallMs,
			stepWithoutModelMs: median(perStep.map((value, index) => value - (modelPerStep[index] ?? 0))),
			stepsPerAsk: CODE_STEPS + 1,
			asks: options.asks,
			samples: perStep
		}
	} finally {
		await llm.stop()
		await rm(filesDir, { recursive: true, force: true })
	}
}
