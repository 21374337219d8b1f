/**
 * Save and saved files (docs/api-contract.md, "Saving"): `POST /api/save { name, history_id, records }`
 * writes the result of the data request with that history id (the `X-Smkit-History-Id` header of
 * its response; the UI always names it), or without `history_id` the last successful data response;
 * with `records` (how many records the client shows) only a result holding exactly those, else
 * nothing; `GET /api/saved`, `GET|DELETE /api/saved/{filename}` list, read and delete. All file
 * handling (names, containment, atomic writes) lives in `saved-store.ts`.
 */
import { Elysia, t } from 'elysia'
import { Text } from '../../server/text-length'
import { displayPath } from '../activity'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import type { KeptResult } from '../result-chain'
import { FILENAME_PATTERN, savedName } from '../saved-names'
import { documented } from './docs'
import { DecimalInteger, objectBody } from './params'

const Receipt = t.Object(
	{
		name: t.String(),
		file: t.String({
			description: 'Relative path, e.g. demo/saved/nike.json',
			examples: ['demo/saved/nike.json']
		}),
		size: t.Integer({ description: 'Bytes' }),
		records: t.Optional(t.Integer({ description: 'How many records the saved list holds (lists only)' }))
	},
	{ title: 'SavedReceipt' }
)

const Entry = t.Object(
	{
		name: t.String(),
		file: t.String(),
		size: t.Integer(),
		modified: t.String({ format: 'date-time' }),
		request: t.Union([t.String(), t.Null()], { description: 'The request whose result was saved' })
	},
	{ title: 'SavedEntry' }
)

const SavedContent = t.Object(
	{
		name: t.String(),
		saved_at: t.String({ format: 'date-time' }),
		request: t.String({ examples: ['GET /api/users/username/luna.explorer'] }),
		result: t.Unknown({ description: 'The saved success envelope' })
	},
	{ title: 'SavedContent' }
)

const FilenameParams = t.Object({
	filename: t.String({
		pattern: FILENAME_PATTERN,
		error:
			"Invalid path parameter 'filename': use letters and digits of any script, _ or - (at most 100 characters and 150 bytes, optionally .json)",
		description:
			'A saved file name as /api/saved lists it (the .json extension is optional): letters, combining marks and digits of any script ' +
			'(Unicode categories L, M and N), _ or -, at most 100 characters and 150 UTF-8 bytes, compared in NFC (a decomposed spelling finds the file). ' +
			'The pattern lists the characters up to U+FFFF; a name no save could produce is a 400.',
		examples: ['luna-profile.json']
	})
})

/**
 * A save naming how many records the client shows (`records`) writes only a result holding exactly
 * those: one holding another number, or a later page of a list kept on its own (its first pages
 * are no longer kept), is refused with a 400 and nothing is written, never saved as if complete.
 */
function refuseIncomplete(chosen: KeptResult, shown: number, historyId: number | undefined): void {
	const which = historyId === undefined ? 'the last result' : `the result of history id ${historyId}`
	const held = chosen.records === undefined ? 'no list' : `${chosen.records} records`
	const again = 'fetch the list again from its first page (its later pages as "Load more"), then save'
	if (chosen.laterPage)
		throw new HttpError(
			'bad_request',
			`Not saved: ${which} is a later page of its list on its own (${held}; the pages before it are no longer kept), not the ${shown} records shown: ${again}`
		)
	if (chosen.records !== shown)
		throw new HttpError(
			'bad_request',
			`Not saved: ${which} holds ${held}, not the ${shown} records shown: ${again}`
		)
}

/** A path segment decoded, or as written when it is not valid percent-encoding. */
function decodedSegment(segment: string): string {
	try {
		return decodeURIComponent(segment)
	} catch {
		return segment
	}
}

/**
 * One request in a form every spelling of it shares: its path segments and query parameters
 * decoded (`%20`, `+` and a space alike, `~` and `%7E` alike), in order, without `token` (history
 * records a request without it).
 */
function canonicalRequest(url: URL): string {
	const segments = url.pathname.split('/').map(decodedSegment)
	const parameters = [...url.searchParams].filter(([name]) => name !== 'token')
	return JSON.stringify([segments, parameters])
}

/** Whether a recorded request line (`GET /path?query`) is the GET request of `url`. */
function sameRequest(recorded: string, url: URL): boolean {
	const space = recorded.indexOf(' ')
	if (space < 0 || recorded.slice(0, space) !== 'GET') return false
	const target = recorded.slice(space + 1)
	if (!target.startsWith('/')) return false
	return canonicalRequest(new URL(`http://localhost${target}`)) === canonicalRequest(url)
}

/**
 * A save naming the request the client shows (`path`) writes only a result of that request:
 * history ids start again at 1 when the playground restarts, so an id a page kept from before may
 * now name another request's result. Refused as not held (404), as an id no longer kept is.
 */
function refuseOtherRequest(chosen: KeptResult, path: string, historyId: number | undefined): void {
	const url = new URL(path, 'http://localhost')
	const shown = `GET ${displayPath(url)}`
	if (sameRequest(chosen.request, url)) return
	const which = historyId === undefined ? 'The last result' : `History id ${historyId}`
	throw new HttpError(
		'not_found',
		`Not saved: ${which} is the result of ${chosen.request}, not of ${shown} (the playground may have restarted since): fetch it again, then save`
	)
}

/** The saved-files route group. */
export const savedRoutes = ({ saved, activity }: PlaygroundContext) =>
	new Elysia({ prefix: '/api' })
		.post(
			'/save',
			async ({ body }) => {
				const chosen =
					body.history_id === undefined ? activity.lastResult : activity.resultOf(body.history_id)
				if (!chosen && body.history_id !== undefined) {
					throw new HttpError(
						'not_found',
						`No result to save for history id ${body.history_id}: only successful data requests among the last 50 are kept`
					)
				}
				if (!chosen) throw new HttpError('bad_request', 'Nothing to save yet: run a request first')
				// A bad name first: the UI fetches the list again only for a refused incomplete result.
				savedName(body.name)
				if (body.path !== undefined) refuseOtherRequest(chosen, body.path, body.history_id)
				if (body.records !== undefined) refuseIncomplete(chosen, body.records, body.history_id)
				const receipt = await saved.save(body.name, chosen.request, chosen.envelope)
				const { records } = chosen
				const alone = chosen.laterPage ? ' (this page only: the list it continues is no longer kept)' : ''
				return ok(
					records === undefined ? receipt : { ...receipt, records },
					`Saved as ${receipt.file}${alone}`
				)
			},
			{
				...objectBody(
					t.Object(
						{
							name: Text({
								minLength: 1,
								maxLength: 200,
								error: "Invalid body field 'name': expected 1-200 characters",
								description:
									'File name; reduced to letters and digits of any script, _ or - (NFC, at most 100 characters and 150 UTF-8 bytes), and made unique rather than overwriting',
								examples: ['luna-profile']
							}),
							history_id: t.Optional(
								DecimalInteger({
									minimum: 1,
									description:
										'History id of the data request whose result to save (its X-Smkit-History-Id header); default: the last successful one',
									error:
										"Invalid body field 'history_id': expected a history id (a whole number from 1, at most 15 digits)"
								})
							),
							path: t.Optional(
								Text({
									minLength: 1,
									maxLength: 4000,
									pattern: '^/api/',
									error: "Invalid body field 'path': expected the path of a data request (/api/...)",
									description:
										'The path and query of the request whose result the client shows (after "Load more", its first page): a result of another request is a 404 and nothing is written',
									examples: ['/api/users/username/luna.explorer']
								})
							),
							records: t.Optional(
								DecimalInteger({
									minimum: 0,
									description:
										'How many records the client shows: only a result holding exactly those is written (after "Load more", the list from its first page), else a 400 and nothing is written',
									error:
										"Invalid body field 'records': expected a number of records (a whole number from 0, at most 15 digits)"
								})
							)
						},
						{ title: 'SaveRequest' }
					)
				),
				...documented(
					'Saved',
					'Save a data result (by history id, else the last one) as a JSON file',
					Receipt,
					{
						description:
							'Writes a successful data response (the one `history_id` names, else the last) to the saved folder as `<name>.json`. ' +
							'With `records`, only a result holding that many records: a result holding another number, or a later page of a list ' +
							'kept on its own (its first pages are no longer kept), is a 400 and nothing is written; fetch the list again from its ' +
							'first page, its later pages with the `X-Smkit-Load-More` header, and save that. ' +
							'With `path`, only a result of that request (history ids start again at 1 when the playground restarts). ' +
							'400 when there is nothing to save; 404 when `history_id` names no kept result, or a result of another request than `path`.',
						errors: ['not_found']
					}
				)
			}
		)
		.get(
			'/saved',
			async () => {
				const entries = await saved.list()
				return ok(entries, `Saved files: ${entries.length}`)
			},
			documented('Saved', 'List saved files, newest first', t.Array(Entry))
		)
		.get(
			'/saved/:filename',
			async ({ params: { filename } }) => ok(await saved.read(filename), `Saved file: ${filename}`),
			{
				params: FilenameParams,
				...documented('Saved', "A saved file's content", SavedContent, { errors: ['not_found'] })
			}
		)
		.delete(
			'/saved/:filename',
			async ({ params: { filename } }) => {
				const result = await saved.remove(filename)
				return ok(result, `Deleted ${result.deleted}`)
			},
			{
				params: FilenameParams,
				...documented(
					'Saved',
					'Delete a saved file',
					t.Object({ deleted: t.String() }, { title: 'DeletedFile' }),
					{ errors: ['not_found'] }
				)
			}
		)
