/**
 * cac's own usage messages are reworded as smkit words its others: lower case, values in single
 * quotes, shapes as the help writes them. Messages of other kinds pass unchanged.
 */
import { expect, it } from 'bun:test'
import { cacWording } from '../../src/cli-error'

it.each([
	['Unused args: `now`', "unexpected argument 'now'"],
	['Unused args: `a`, `b`', "unexpected arguments 'a', 'b'"],
	[
		'missing required args for command `collect <kind> <target>`',
		'missing arguments: smkit collect KIND TARGET'
	],
	[
		'missing required args for command `compare <...usernames>`',
		'missing arguments: smkit compare USERNAMES...'
	],
	['missing required args for command `x <a> [...more]`', 'missing arguments: smkit x A [MORE...]'],
	['option `--port <port>` value is missing', '--port needs a value'],
	["Unknown option `--limt` (did you mean '--limit'?)", "unknown option '--limt' (did you mean '--limit'?)"],
	['--limit must be a whole number of at least 1', '--limit must be a whole number of at least 1']
])('%p reads %p', (message, reworded) => {
	expect(cacWording(message)).toBe(reworded)
})
