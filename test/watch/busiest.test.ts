/**
 * `smkit analytics` names the busiest weekday and hour; a tie names every slot holding the most
 * posts instead of the first one alone.
 */
import { expect, test } from 'bun:test'
import { busiest } from '../../src/watch/analytics-cli'

const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

test('one busiest slot is named alone', () => {
	expect(busiest([1, 0, 4, 2, 0, 0, 3], (day) => days[day] as string)).toBe('Wed')
})

test('a tie names every tied slot with the count they share', () => {
	expect(busiest([7, 0, 2, 7, 0, 1, 0], (day) => days[day] as string)).toBe('Mon, Thu (7 posts each)')
})
