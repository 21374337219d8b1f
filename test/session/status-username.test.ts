/**
 * `/api/status` names the account once a check has named it: after a start-up check that got no
 * answer (Instagram's 500), a data request that succeeds makes the session `valid` with `username`
 * null until `POST /api/session/check`, as the README's "Real accounts" section says.
 */
import { afterAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeSession } from '../../src/session/start-line'
import { DEMO_CREDENTIALS } from '../../src/simulator/credentials'
import { expectOk, startPlayground } from '../playground/support'

const harness = await startPlayground({
	loggedIn: false,
	client: { credentials: { ...DEMO_CREDENTIALS }, maxRetries: 0 },
	deps: { demo: false }
})
afterAll(() => harness.stop())

/** The README's "## Real accounts" section, its lines joined. */
function realAccountsSection(): string {
	const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8')
	const start = readme.indexOf('## Real accounts')
	const end = readme.indexOf('\n## ', start + 1)
	return readme.slice(start, end).replace(/\s+/g, ' ')
}

test('valid with username null after a failed start-up check, named by the next check, as documented', async () => {
	harness.simulator.faults.set({ kind: 'server_error', status: 500, pathPattern: 'current_user' })
	expect(await describeSession(harness.ig, 'not logged in')).toContain('session not checked')
	await expectOk(await harness.get('/api/users/username/luna.explorer'))
	expect((await harness.json('/api/status')).body.data).toMatchObject({ session: 'valid', username: null })
	harness.simulator.faults.clear()
	await expectOk(await harness.request('POST', '/api/session/check'))
	expect((await harness.json('/api/status')).body.data).toMatchObject({
		session: 'valid',
		username: 'smkit_demo'
	})
	expect(realAccountsSection()).toContain('`valid` (with `username` once a check has named it')
})
