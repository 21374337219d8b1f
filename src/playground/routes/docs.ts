/**
 * OpenAPI `detail` for a route: tag, summary and the success envelope of its data schema, plus the
 * failure envelope. Documented through `detail` rather than Elysia's `response` option on purpose:
 * `response` would also validate (and may strip) every outgoing body at run time.
 */
import type { TSchema } from 'elysia'
import { FailureEnvelope, SuccessEnvelopeOf } from '../../server/envelope'

const json = (schema: TSchema) => ({ 'application/json': { schema } })

/** Route options carrying the OpenAPI description of a route returning `data`. */
export function documented(
	tag: string,
	summary: string,
	data: TSchema,
	options: { paginated?: boolean } = {}
) {
	const description = options.paginated
		? 'Success envelope; data is the list, next_cursor resumes it'
		: 'Success envelope'
	return {
		detail: {
			tags: [tag],
			summary,
			responses: {
				200: { description, content: json(SuccessEnvelopeOf(data)) },
				default: { description: 'Failure envelope', content: json(FailureEnvelope) }
			}
		}
	} as { detail: Record<string, unknown> }
}
