/**
 * `POST /api/lists/{name}/watches` looks every new member up at the pace of the client's profile
 * budget, however long that takes: a look-up waiting for its turn is not given up after a single
 * watch's deadline (`CHECK_TIMEOUT_MS`, shortened here), nor when the wait is longer than the
 * client waits at once (`rateLimitMaxWait`), so every unknown member comes back in `not_found`
 * and none is watched unchecked. A single watch's check keeps its deadline.
 */
import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import { CHECK_TIMEOUT_MS } from '../../src/watch/check'
import { expectOk, type PlaygroundHarness, startPlayground } from '../playground/support'

/** Two profile look-ups per window: a list of six waits for the budget more than once. */
const budget = (windowMs: number) => ({ get_profile: { limit: 2, windowMs } })

const known = ['luna.explorer', 'mega.travel']
const unknown = ['nobody_zz_401', 'nobody_zz_402', 'nobody_zz_403', 'nobody_zz_404']
const members = [
	'luna.explorer',
	'nobody_zz_401',
	'nobody_zz_402',
	'mega.travel',
	'nobody_zz_403',
	'nobody_zz_404'
]

let deadlines: PlaygroundHarness
let shortWaits: PlaygroundHarness
beforeAll(async () => {
	deadlines = await startPlayground({ client: { rateLimits: budget(1000) } })
	shortWaits = await startPlayground({ client: { rateLimits: budget(500), rateLimitMaxWait: 10 } })
})
afterAll(async () => {
	await deadlines.stop()
	await shortWaits.stop()
})

// The single watch's deadline, 20 ms instead of 15 s: a wait for the budget outlasts it at once.
const timeout = AbortSignal.timeout
let shortDeadline: ReturnType<typeof spyOn>
beforeAll(() => {
	shortDeadline = spyOn(AbortSignal, 'timeout').mockImplementation((ms) =>
		timeout.call(AbortSignal, ms === CHECK_TIMEOUT_MS ? 20 : ms)
	)
})
afterAll(() => shortDeadline.mockRestore())

/** Watches the list of `members` on `harness`; resolves to the answer's envelope. */
async function watchList(harness: PlaygroundHarness, name: string) {
	await expectOk(await harness.request('POST', '/api/lists', { body: { name, usernames: members } }))
	return expectOk(await harness.request('POST', `/api/lists/${name}/watches`, { body: {} }))
}

/** The list was watched completely: the known members, and every unknown one in `not_found`. */
function expectComplete(answer: { data: any; message: string }) {
	expect(answer.data.not_found).toEqual(unknown)
	expect(answer.data.created.map((watch: { target: string }) => watch.target)).toEqual(known)
	expect(answer.message).not.toContain('Could not check')
}

test("list look-ups wait for the profile budget past a single check's deadline", async () => {
	expectComplete(await watchList(deadlines, 'long'))
	// One watch keeps its deadline: with the budget used up, its check gives up and warns.
	await Promise.all(['xss.payload', 'private.pat'].map((user) => deadlines.ig.users.getByUsername(user)))
	const single = await expectOk(
		await deadlines.request('POST', '/api/watches', { body: { username: 'xss.payload' } })
	)
	expect(single.message).toContain('Could not check that @xss.payload exists')
}, 30_000)

test("list look-ups wait out the client's refusal of a long wait for the budget", async () => {
	expectComplete(await watchList(shortWaits, 'refused'))
}, 30_000)
