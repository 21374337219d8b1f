/**
 * `POST /api/export/csv` (docs/api-contract.md, "CSV export"): the records at `data.data` (or `data`) as a CSV
 * download. The only playground endpoint whose success is not an envelope; failures still are.
 */
import { Elysia, t } from 'elysia'
import { csvResponse } from '../../server/csv'
import { FailureEnvelope } from '../../server/envelope'

const detail: Record<string, unknown> = {
	tags: ['Export'],
	summary: 'Records as a CSV download (UTF-8 with BOM)',
	responses: {
		200: {
			description: 'CSV file: header = union of keys, nested objects as dotted columns',
			content: { 'text/csv': { schema: { type: 'string' } } }
		},
		default: { description: 'Failure envelope', content: { 'application/json': { schema: FailureEnvelope } } }
	}
}

/** The CSV export route group. */
export const exportRoutes = () =>
	new Elysia({ prefix: '/api/export' }).post('/csv', ({ body }) => csvResponse(body), {
		// Records stay unvalidated here (up to 10 MiB of them); `csvResponse` checks their shape.
		parse: 'json',
		body: t.Object({
			data: t.Unknown({
				description:
					'An array of records, { data: [records] } (a playground list envelope), or one record (one row)'
			}),
			name: t.Optional(
				t.String({
					maxLength: 200,
					error: "Invalid body field 'name': expected text of at most 200 characters",
					description:
						'What the records are, starting the file name: followers-luna.explorer gives followers-luna.explorer-20261123-195847.csv',
					examples: ['followers-luna.explorer']
				})
			)
		}),
		detail
	})
