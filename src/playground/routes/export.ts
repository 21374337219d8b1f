/**
 * `POST /api/export/csv` (docs/api-contract.md, "CSV export"): the records at `data.data` (or `data`) as a CSV
 * download. The only playground endpoint whose success is not an envelope; failures still are.
 */
import { Elysia, t } from 'elysia'
import { csvResponse } from '../../server/csv'
import { Text } from '../../server/text-length'
import { documentedContent } from './docs'
import { objectBody } from './params'

const detail = documentedContent(
	'Export',
	'Records as a CSV download',
	{
		description: 'CSV file (UTF-8 with BOM): header = union of keys, nested objects as dotted columns',
		mediaType: 'text/csv',
		schema: t.String()
	},
	{
		description:
			'Converts records to CSV: `data` is an array of records or a list envelope whose `data` is one; ' +
			'one record (or an envelope of one) is one row. ' +
			'Cells starting with =, +, - or @ are escaped against formula injection. Bodies up to 10 MiB.'
	}
)

/** The CSV export route group. */
export const exportRoutes = () =>
	new Elysia({ prefix: '/api/export' }).post('/csv', ({ body }) => csvResponse(body), {
		// Records stay unvalidated here (up to 10 MiB of them); `csvResponse` checks their shape.
		...objectBody(
			t.Object(
				{
					data: t.Unknown({
						description:
							'An array of records, { data: [records] } (a playground list envelope), or one record (one row)',
						examples: [[{ username: 'luna.explorer', follower_count: 48210 }]]
					}),
					name: t.Optional(
						Text({
							maxLength: 200,
							error: "Invalid body field 'name': expected text of at most 200 characters",
							description:
								'What the records are, starting the file name: followers-luna.explorer gives followers-luna.explorer-20261123-195847.csv',
							examples: ['followers-luna.explorer']
						})
					)
				},
				{ title: 'CsvExportRequest' }
			)
		),
		...detail
	})
