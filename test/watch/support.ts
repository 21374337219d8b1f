/** What the watch tests share: moving a simulator's clock, and an account's whole follower list. */
import { expect } from 'bun:test'
import type { InstagramClient } from '../../src/client/client'

/** Moves the simulator at `url` on by `hours` (its followers come and go). */
export async function advanceClock(url: string, hours: number): Promise<void> {
	const response = await fetch(`${url}/__sim/clock`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ advance_hours: hours })
	})
	expect(response.status).toBe(200)
}

/** Every follower pk of the account, walked directly. */
export async function followerPks(ig: InstagramClient, pk: string): Promise<Set<string>> {
	const pks = new Set<string>()
	let cursor: string | null = null
	do {
		const page = await ig.friendships.getFollowers(pk, { count: 200, cursor })
		for (const user of page.items) pks.add(user.pk)
		cursor = page.next_cursor
	} while (cursor)
	return pks
}
