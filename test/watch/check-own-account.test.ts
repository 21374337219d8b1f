/**
 * The look before a watch with its follower list: a private account warns that its list needs the
 * session's account to follow it, but the session's own account (private in demo mode) does not:
 * its list is always collected.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { InstagramClient } from '../../src/client/client'
import { createDemoClient, DEMO_USERNAME } from '../../src/demo'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { checkWatchTarget } from '../../src/watch/check'

let simulator: Simulator
let ig: InstagramClient

beforeAll(async () => {
	simulator = await startSimulator({ port: 0, host: '127.0.0.1' })
	ig = createDemoClient(simulator.url)
})
afterAll(() => simulator.stop())

const withList = (target: string) => ({
	kind: 'account' as const,
	target,
	every_seconds: 86_400,
	followers: true
})

test("the session's own private account is watched with its follower list without a warning", async () => {
	const own = await ig.users.getByUsername(DEMO_USERNAME)
	expect(own.is_private).toBe(true)
	expect(own.pk).toBe(ig.viewerPk as string)
	expect(await checkWatchTarget(ig, withList(DEMO_USERNAME), 'add it with --skip-check')).toBeUndefined()
	// Another's private account still says why its list may not be readable.
	expect(await checkWatchTarget(ig, withList('private.pat'), 'add it with --skip-check')).toBe(
		"@private.pat is private: its follower list can only be collected while this session's account follows it"
	)
})
