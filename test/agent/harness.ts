/**
 * Shared set-up for agent tests: the simulated Instagram, a demo client, the fake model server,
 * and agents wired to them with a temporary output folder.
 */
import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Agent, type AgentOptions } from '../../src/agent/agent'
import { resolveProvider } from '../../src/agent/providers'
import type { InstagramClient } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { startSimulator } from '../../src/simulator/server'
import { type FakeLlm, startFakeLlm } from '../support/fake-llm'

/** The provider key used in tests; assertions check it never leaks into prompts or errors. */
export const testApiKey = 'sk-test-agent-KEY-9f8e7d6c5b4a'

/** Everything an agent test needs. */
export interface Harness {
	llm: FakeLlm
	client: InstagramClient
	simulatorUrl: string
	/** A fresh temporary folder (removed in `stop`). */
	tempDir(): Promise<string>
	agent(options?: Partial<AgentOptions>): Agent
	stop(): Promise<void>
}

/** Starts the simulator and the fake model server. */
export async function startHarness(): Promise<Harness> {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	const llm = await startFakeLlm({ models: ['first-listed:7b', 'fake-model'] })
	const client = createDemoClient(simulator.url)
	const dirs: string[] = []
	const provider = resolveProvider({
		provider: 'openai',
		apiKey: testApiKey,
		baseURL: llm.url,
		model: 'fake-model'
	})
	return {
		llm,
		client,
		simulatorUrl: simulator.url,
		async tempDir() {
			const dir = await mkdtemp(path.join(tmpdir(), 'smkit-agent-'))
			dirs.push(dir)
			return dir
		},
		agent(options = {}) {
			return new Agent({
				client,
				provider,
				modelOptions: { maxRetries: 0, timeoutMs: 5000 },
				permission: 'full_access',
				filesDir: path.join(tmpdir(), 'smkit-agent-unused'),
				...options
			})
		},
		async stop() {
			await llm.stop()
			await simulator.stop()
			for (const dir of dirs) await rm(dir, { recursive: true, force: true })
		}
	}
}

/** The text of the last tool (or code-result) message the model was sent. */
export function lastToolOutput(body: { messages: { role: string; content: string | null }[] }): string {
	const message = body.messages.findLast((item) => item.role === 'tool' || item.role === 'user')
	return message?.content ?? ''
}

/**
 * A folder no write succeeds in: read-only for an ordinary user; root writes anywhere, but not in
 * sysfs (Linux), so there it is a link to /sys.
 */
export async function unwritableFolder(parent: string, name = 'output'): Promise<string> {
	const folder = path.join(parent, name)
	if (process.getuid?.() === 0) await symlink('/sys', folder)
	else {
		await mkdir(folder)
		await chmod(folder, 0o555)
	}
	return folder
}
