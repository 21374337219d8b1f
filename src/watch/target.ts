/**
 * A watch target as people type it (`luna.explorer`, `@luna.explorer`, `#sunset`) and its interval
 * (`6h`, `1d`), turned into a watch spec, with messages that name the command line's options.
 */
import { UsageError } from '../cli-error'
import { hashtagKey, requireUsername } from '../client/api/base'
import { parseEvery, type WatchSpec } from './types'

/** `luna.explorer` → an account spec, `#sunset` → a hashtag spec. */
export function watchSpecOf(target: string, every: string, followers: boolean): WatchSpec {
	let every_seconds: number
	try {
		every_seconds = parseEvery(every)
	} catch (error) {
		// The rule's message names the field ('every must look like 1h, ...'): name the option instead.
		const message = (error as Error).message
		throw new UsageError(message.startsWith('every ') ? `--${message}` : `--every: ${message}`)
	}
	const hashtag = target.trim().startsWith('#')
	if (hashtag && followers)
		throw new UsageError(
			'--followers is for accounts: a hashtag watch stores its media count and top 9 posts'
		)
	try {
		return hashtag
			? { kind: 'hashtag', target: hashtagKey(target), every_seconds, followers: false }
			: { kind: 'account', target: requireUsername(target), every_seconds, followers }
	} catch (error) {
		throw new UsageError(`TARGET must be a username or #hashtag: ${(error as Error).message}`)
	}
}
