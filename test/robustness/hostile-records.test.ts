import { describe, expect, test } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import { createPlaygroundApp } from '../../src/playground/app'

// Records a hostile page could post to the CSV export: keys that are special to JavaScript objects
// must come out as plain columns with their own values.
const app = createPlaygroundApp({
	ig: new InstagramClient({ baseURL: 'http://127.0.0.1:9' }),
	savedDir: 'unused-saved-dir',
	log: () => {}
})

const exportCsv = async (body: string) => {
	const response = await app.handle(
		new Request('http://127.0.0.1/api/export/csv', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body
		})
	)
	return { status: response.status, text: (await response.text()).replace(/^\uFEFF/, '') }
}

describe('CSV export of hostile records', () => {
	test('a __proto__ field keeps its value next to a nested field', async () => {
		const { status, text } = await exportCsv('{"data":[{"__proto__":"keep me","a":{"b":2}}]}')
		expect(status).toBe(200)
		expect(text).toBe('__proto__,a.b\r\nkeep me,2')
	})

	test('a __proto__ field keeps its value in a flat record', async () => {
		const { status, text } = await exportCsv('{"data":[{"__proto__":"keep me","a":2}]}')
		expect(status).toBe(200)
		expect(text).toBe('__proto__,a\r\nkeep me,2')
	})
})

describe('CSV export with fields named like Object.prototype members', () => {
	test('a record without them has empty cells there, not [object Object] or function text', async () => {
		const { status, text } = await exportCsv(
			'{"data":[{"a":1},{"constructor":"c","toString":"t","__proto__":"p","hasOwnProperty":"h"}]}'
		)
		expect(status).toBe(200)
		expect(text).toBe('a,constructor,toString,__proto__,hasOwnProperty\r\n1,,,,\r\n,c,t,p,h')
	})
})
