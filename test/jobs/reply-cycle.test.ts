/**
 * A comment's reply pages whose cursors go round (A, B, A) lead nowhere new, yet its replies have
 * not ended: the comments page is a stalled list (asked again by the job, then failed), never a
 * comment stored with part of its replies as if they were all.
 */
import { expect, test } from 'bun:test'
import type { InstagramClient } from '../../src/client/client'
import { ListStalledError } from '../../src/client/list-walk'
import { KIND_SOURCES } from '../../src/jobs/kinds'

const reply = (pk: string) => ({ pk, text: `reply ${pk}` })

/** A client whose one comment has 10 replies, paged A -> B -> A. */
const cycling = {
	media: {
		getComments: async () => ({
			items: [{ pk: '1', text: 'comment', reply_count: 10, replies: [reply('r0')] }],
			next_cursor: null
		}),
		getCommentReplies: async (_pk: string, _comment: string, { cursor }: { cursor: string | null }) =>
			cursor === 'B'
				? { items: [reply('r2')], next_cursor: 'A' }
				: { items: [reply(cursor === 'A' ? 'r1' : 'r0')], next_cursor: cursor === 'A' ? 'B' : 'A' }
	}
} as unknown as InstagramClient

test('reply cursors that go round make the comments page a stalled list', async () => {
	const page = KIND_SOURCES.comments.page(cycling, '3842790443716764595', null, new AbortController().signal)
	await expect(page).rejects.toBeInstanceOf(ListStalledError)
})
