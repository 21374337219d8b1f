/**
 * A client call made by the agent's code hears when its run ends: cancelled (Ctrl-C, an MCP cancel)
 * or over, the call is let go, so a call waiting for the rate limiter's next slot neither keeps the
 * process alive nor holds the slot for a run nobody reads.
 */
import { expect, test } from 'bun:test'
import { tmpdir } from 'node:os'
import { createCodeRunner } from '../../src/agent/code-runner'
import { ConversationFileQuota } from '../../src/agent/file-quota'
import { OutputFiles } from '../../src/agent/files'
import { PermissionGate } from '../../src/agent/permissions'
import type { InstagramClient } from '../../src/client/client'
import { methodRegistry } from '../../src/client/registry'

/** A client whose profile look-up waits (as for a rate-limit slot) until its signal aborts. */
function waitingClient() {
	const seen: { username: unknown; signal: AbortSignal | undefined }[] = []
	const client = {
		transport: { redact: (text: string) => text },
		users: {
			getByUsername(username: unknown, options?: { signal?: AbortSignal }) {
				seen.push({ username, signal: options?.signal })
				return new Promise((_resolve, reject) => {
					options?.signal?.addEventListener('abort', () => reject(new Error('let go: the run ended')))
				})
			}
		}
	}
	return { seen, client: client as unknown as InstagramClient }
}

const runner = (client: InstagramClient, timeoutMs = 20_000) =>
	createCodeRunner({
		client,
		methods: methodRegistry.filter((spec) => spec.path === 'users.getByUsername'),
		gate: new PermissionGate({ level: 'full_access' }),
		files: new OutputFiles('output', { cwd: tmpdir() }),
		quota: new ConversationFileQuota(),
		timeoutMs
	})

test('cancelling the run lets a waiting call go at once, with its own arguments kept', async () => {
	const { seen, client } = waitingClient()
	const controller = new AbortController()
	setTimeout(() => controller.abort(new Error('cancelled')), 200)
	const started = performance.now()
	await runner(client)("return await ig.users.getByUsername('luna.explorer')", {
		step: 1,
		callId: 'cancel',
		signal: controller.signal,
		files: []
	})
	expect(performance.now() - started).toBeLessThan(10_000)
	expect(seen).toHaveLength(1)
	expect(seen[0]?.username).toBe('luna.explorer')
	expect(seen[0]?.signal?.aborted).toBe(true)
})

test('a call still out when the run times out is let go too', async () => {
	const { seen, client } = waitingClient()
	const outcome = await runner(client, 300)("ig.users.getByUsername('luna.explorer'); return 1", {
		step: 1,
		callId: 'timeout',
		files: []
	})
	expect(outcome.success).toBe(false)
	expect(seen[0]?.signal?.aborted).toBe(true)
})
