/**
 * Shared set-up of the robustness suites: a simulated Instagram, a demo client pointed at it, the
 * playground app with a temporary saved directory (optionally listening on a loopback port), a
 * seeded random generator and the envelope check every suite applies to every response.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { ClientOptions } from '../../src/client/client'
import { createDemoClient } from '../../src/demo'
import { createPlaygroundAi } from '../../src/playground/ai'
import { createPlaygroundApp } from '../../src/playground/app'
import { Envelope, httpStatusOf } from '../../src/playground/envelope'
import { type Simulator, startSimulator } from '../../src/simulator/server'

/** A playground over a fresh simulator. */
export interface RobustPlayground {
	app: ReturnType<typeof createPlaygroundApp>
	simulator: Simulator
	savedDir: string
	/** Lines the app logged (unexpected errors and upstream failures). */
	logs: string[]
	/** Origin of the listening server (only with `listen: true`). */
	url: string
	stop(): Promise<void>
}

/**
 * Starts the simulator and the app; `listen` also serves it on 127.0.0.1, port 0; `aiBaseURL` wires
 * AI chat to an OpenAI-compatible model there (full access, files in the saved directory).
 */
export async function startRobustPlayground(
	options: { client?: ClientOptions; listen?: boolean; aiBaseURL?: string } = {}
): Promise<RobustPlayground> {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	const savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-robust-'))
	const logs: string[] = []
	const ig = createDemoClient(simulator.url, options.client)
	const log = (line: string) => logs.push(line)
	const ai = options.aiBaseURL
		? createPlaygroundAi({
				client: ig,
				env: {},
				provider: 'openai',
				apiKey: 'sk-robustness-test',
				baseURL: options.aiBaseURL,
				model: 'fake-model',
				permission: 'full_access',
				filesDir: path.join(savedDir, 'output'),
				timeoutSeconds: 5,
				modelOptions: { maxRetries: 0, timeoutMs: 5000 },
				heartbeatMs: 1000,
				log
			})
		: undefined
	const app = createPlaygroundApp({ ig, savedDir, demo: true, ai, log })
	const server = options.listen
		? Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch, maxRequestBodySize: 11 * 1024 * 1024 })
		: undefined
	return {
		app,
		simulator,
		savedDir,
		logs,
		url: server ? `http://127.0.0.1:${server.port}` : '',
		async stop() {
			await server?.stop(true)
			await simulator.stop()
			await rm(savedDir, { recursive: true, force: true })
		}
	}
}

/**
 * Why a response under `/api/` is not a valid envelope with a status matching its code, or
 * undefined when it is. `text` is the body already read.
 */
export function envelopeProblem(status: number, text: string): string | undefined {
	let body: unknown
	try {
		body = JSON.parse(text)
	} catch {
		return `status ${status}: body is not JSON: ${text.slice(0, 120)}`
	}
	if (!Value.Check(Envelope, body)) return `status ${status}: not an envelope: ${text.slice(0, 200)}`
	const envelope = body as { success: boolean; code?: keyof typeof httpStatusOf }
	if (envelope.success && status !== 200) return `status ${status} with a success envelope`
	if (!envelope.success && envelope.code && httpStatusOf[envelope.code] !== status) {
		return `status ${status} does not match code ${envelope.code} (${httpStatusOf[envelope.code]})`
	}
	return undefined
}

/** A small seeded generator (mulberry32), so a failing run can be repeated from its seed. */
export class SeededRandom {
	private state: number
	constructor(readonly seed: number) {
		this.state = seed >>> 0
	}
	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0
		let value = this.state
		value = Math.imul(value ^ (value >>> 15), value | 1)
		value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
		return ((value ^ (value >>> 14)) >>> 0) / 4294967296
	}
	/** An integer in [0, limit). */
	int(limit: number): number {
		return Math.floor(this.next() * limit)
	}
	/** One element of a non-empty list. */
	pick<Item>(items: readonly Item[]): Item {
		return items[this.int(items.length)] as Item
	}
	/** True with probability `chance`. */
	chance(chance: number): boolean {
		return this.next() < chance
	}
}

/** Resident memory of this process in MiB. */
export const rssMiB = () => process.memoryUsage().rss / 1024 / 1024

/** Heap in use after a full collection, MiB. */
export function heapAfterGcMiB(): number {
	Bun.gc(true)
	return process.memoryUsage().heapUsed / 1024 / 1024
}
