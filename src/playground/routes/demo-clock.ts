/**
 * `/api/demo/clock`: the simulated world's clock in demo mode (`--demo`). Moving it forward makes the
 * demo accounts gain and lose followers and publish posts, so watches have changes to show ("advance
 * demo time by a day" in the Watch panel). Outside demo mode both routes answer 404.
 */
import { Elysia, t } from 'elysia'
import type { PlaygroundContext } from '../app'
import { HttpError, ok } from '../envelope'
import { documented } from './docs'
import { objectBody } from './params'

/** The longest single move, in hours (a week). */
const MAX_ADVANCE_HOURS = 168

const ClockSchema = t.Object({
	hours: t.Number({ description: 'Hours the demo clock has moved since the data set was made' }),
	now: t.Integer({ description: 'Simulated unix time (seconds)' }),
	iso: t.String({ format: 'date-time' }),
	applied_hours: t.Integer()
})

/** How a clock route is documented: 404 outside demo mode, 502 when the simulator fails. */
const clockDocs = (summary: string) =>
	documented('Demo', summary, ClockSchema, {
		errors: ['not_found', 'upstream_error'],
		description: `${summary}. Demo mode only: 404 outside it; 502 when the simulator cannot be reached.`
	})

/** The demo clock route group. */
export const demoClockRoutes = ({ deps }: PlaygroundContext) => {
	const clock = () => {
		if (!deps.demoClock)
			throw new HttpError('not_found', 'Demo time exists only in demo mode (smkit playground --demo)')
		return deps.demoClock
	}
	const call = async (advanceHours?: number) => {
		try {
			return await clock()(advanceHours)
		} catch (error) {
			if (error instanceof HttpError) throw error
			throw new HttpError('upstream_error', `The simulator's clock: ${(error as Error).message}`)
		}
	}
	return new Elysia({ prefix: '/api/demo' })
		.get(
			'/clock',
			async () => {
				const reading = await call()
				return ok(reading, `Demo time: ${reading.iso}`)
			},
			clockDocs("The demo world's clock")
		)
		.post(
			'/clock',
			async ({ body }) => {
				clock()
				const reading = await call(body.advance_hours)
				return ok(reading, `Demo time moved ${body.advance_hours} h to ${reading.iso}`)
			},
			{
				...objectBody(
					t.Object({
						advance_hours: t.Number({
							exclusiveMinimum: 0,
							maximum: MAX_ADVANCE_HOURS,
							error: `Invalid body field 'advance_hours': expected hours above 0 and at most ${MAX_ADVANCE_HOURS}`,
							examples: [24]
						})
					})
				),
				...clockDocs('Move the demo world forward')
			}
		)
}
