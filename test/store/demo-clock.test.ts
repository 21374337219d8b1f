/**
 * Demo time kept with the store: a second demo process on the store starts its simulator where the
 * first left demo time, so both read one world (the same followers and posts).
 */
import { afterAll, expect, test } from 'bun:test'
import { createDemoClient, simulatorClock } from '../../src/demo'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { recordDemoHours, storeDemoClock, storedDemoHours } from '../../src/store/demo-clock'

const started: Simulator[] = []
afterAll(async () => {
	for (const simulator of started) await simulator.stop()
})

/** An in-process demo session as demo mode opens one. */
async function demoSession() {
	const simulator = await startSimulator({ port: 0, host: '127.0.0.1', controlToken: true })
	started.push(simulator)
	return {
		external: false,
		clock: simulatorClock(simulator.url, simulator.controlToken),
		client: createDemoClient(simulator.url)
	}
}

const counts = async (session: Awaited<ReturnType<typeof demoSession>>) => {
	const user = await session.client.users.getByUsername('luna.explorer')
	return { followers: user.follower_count, posts: user.media_count }
}

test('a move recorded by one demo process is where the next one on the store starts, and one running follows', async () => {
	const store = openStore(':memory:')
	const first = await demoSession()
	const kept = await storeDemoClock(store, first)
	expect(kept?.moved).toBe(0)
	await kept?.clock(100)
	await kept?.clock(100)
	expect(storedDemoHours(store)).toBe(200)

	const second = await demoSession()
	const before = await counts(second)
	const restored = await storeDemoClock(store, second)
	// Two moves, the longest a week: the world of 200 hours, as the first process has it.
	expect(restored?.moved).toBe(200)
	expect((await second.clock()).hours).toBe(200)
	expect(await counts(second)).toEqual(await counts(first))
	expect(await counts(second)).not.toEqual(before)
	// Reading the clock records nothing; a reading behind the stored one never moves it back.
	await restored?.clock()
	recordDemoHours(store, 24)
	expect(storedDemoHours(store)).toBe(200)

	// The first process moves on: the second, still running, catches up on its next look...
	await kept?.clock(30)
	await restored?.sync()
	expect((await second.clock()).hours).toBe(230)
	expect(await counts(second)).toEqual(await counts(first))
	// ...and a move of its own adds to the latest reading, whoever made it.
	await kept?.clock(10)
	expect((await restored?.clock(5))?.hours).toBe(245)
	expect(storedDemoHours(store)).toBe(245)
	kept?.stop()
	restored?.stop()
	store.close()
})

test('a running demo process follows the store on its own, every followMs', async () => {
	const store = openStore(':memory:')
	const mover = await storeDemoClock(store, await demoSession())
	const follower = await demoSession()
	const following = await storeDemoClock(store, follower, { followMs: 20 })
	await mover?.clock(12)
	// Polled, not timed: the follower's clock reaches the move without being asked.
	let hours = 0
	for (let tries = 0; tries < 200 && hours < 12; tries++) {
		await Bun.sleep(10)
		hours = (await follower.clock()).hours
	}
	expect(hours).toBe(12)
	following?.stop()
	mover?.stop()
	store.close()
})

test('a simulator of its own (SMKIT_UPSTREAM_URL) keeps its clock: neither moved nor recorded', async () => {
	const store = openStore(':memory:')
	recordDemoHours(store, 48)
	const shared = { ...(await demoSession()), external: true }
	const kept = await storeDemoClock(store, shared)
	expect(kept?.moved).toBe(0)
	expect((await shared.clock()).hours).toBe(0)
	await kept?.clock(5)
	expect(storedDemoHours(store)).toBe(48)
	expect(await storeDemoClock(store, undefined)).toBeUndefined()
	store.close()
})
