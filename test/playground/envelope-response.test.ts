import { describe, expect, test } from 'bun:test'
import { envelopeResponse } from '../../src/playground/app-support'

describe('envelopeResponse', () => {
	test('serialises an envelope with the status and headers set for it, and resets them', async () => {
		const set = { headers: { 'x-smkit-history-id': '7' } as Record<string, unknown>, status: 404 }
		const response = envelopeResponse({ success: false, error: 'gone', code: 'not_found' }, set)
		expect(response?.status).toBe(404)
		expect(response?.headers.get('content-type')).toBe('application/json;charset=utf-8')
		expect(response?.headers.get('x-smkit-history-id')).toBe('7')
		expect(await response?.json()).toEqual({ success: false, error: 'gone', code: 'not_found' })
		expect(Object.keys(set.headers)).toEqual([])
		expect(set.status).toBe(200)
	})

	test('leaves responses, text, class instances and own content types to Elysia', () => {
		const set = () => ({ headers: {} as Record<string, unknown>, status: 200 })
		expect(envelopeResponse(new Response('x'), set())).toBeUndefined()
		expect(envelopeResponse('text', set())).toBeUndefined()
		expect(envelopeResponse(new Map(), set())).toBeUndefined()
		const csv = { headers: { 'content-type': 'text/csv' } as Record<string, unknown>, status: 200 }
		expect(envelopeResponse({ a: 1 }, csv)).toBeUndefined()
		expect(csv.headers['content-type']).toBe('text/csv')
	})
})
