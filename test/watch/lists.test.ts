/**
 * /api/lists: named lists of accounts, and a list as the target of compare, of watches (one per
 * member) and of jobs (one collection per member).
 */
import { describe, expect, it } from 'bun:test'
import { expectFailure, expectNoLeaks, expectOk, usePlayground } from '../playground/support'

const harness = usePlayground()

const post = (path: string, body: unknown) => harness.request('POST', path, { body })

describe('lists', () => {
	it('are created, grown, shrunk and deleted; names and usernames are checked', async () => {
		const created = await expectOk(
			await post('/api/lists', { name: 'rivals', usernames: ['@Luna.Explorer', 'mega.travel'] })
		)
		expect(created.data).toMatchObject({ name: 'rivals', usernames: ['luna.explorer', 'mega.travel'] })
		await expectFailure(await post('/api/lists', { name: 'rivals' }), 400, 'bad_request')
		await expectFailure(await post('/api/lists', { name: '../etc' }), 400, 'bad_request')
		const bad = await expectFailure(
			await post('/api/lists', { name: 'x', usernames: ['no spaces'] }),
			400,
			'bad_request'
		)
		expect(bad.error).toContain("'usernames'")
		// Surrounding spaces are dropped before the 50-character limit counts.
		const long = 'n'.repeat(50)
		expect((await expectOk(await post('/api/lists', { name: ` ${long} ` }))).data.name).toBe(long)
		await expectFailure(await post('/api/lists', { name: 'n'.repeat(51) }), 400, 'bad_request')
		await expectOk(await harness.request('DELETE', `/api/lists/${long}`))
		const grown = await expectOk(
			await post('/api/lists/rivals/members', { usernames: ['xss.payload', 'mega.travel'] })
		)
		expect(grown.data.usernames).toEqual(['luna.explorer', 'mega.travel', 'xss.payload'])
		const listed = await expectOk(await harness.get('/api/lists'))
		expect(listed.data.map((list: { name: string }) => list.name)).toEqual(['rivals'])

		const compared = await expectOk(await harness.get('/api/lists/rivals/compare?posts=5'))
		const direct = await expectOk(
			await harness.get('/api/compare?users=luna.explorer,mega.travel,xss.payload&posts=5')
		)
		expect(compared.data.rows).toEqual(direct.data.rows)
		await expectFailure(await harness.get('/api/lists/nope/compare'), 404, 'not_found')

		await expectOk(await post('/api/lists/rivals/members', { usernames: ['a1', 'a2', 'a3'] }))
		await expectFailure(await harness.get('/api/lists/rivals/compare'), 400, 'bad_request')
		// Removing takes '@name' as adding does.
		for (const name of ['a1', '@a2', '@A3'])
			await expectOk(await harness.request('DELETE', `/api/lists/rivals/members/${name}`))
		const shrunk = await expectOk(await harness.request('DELETE', '/api/lists/rivals/members/xss.payload'))
		expect(shrunk.data.usernames).toEqual(['luna.explorer', 'mega.travel'])
		await expectFailure(
			await harness.request('DELETE', '/api/lists/rivals/members/xss.payload'),
			404,
			'not_found'
		)
		// A full list takes members it has already (nothing is added) but no new one.
		const many = Array.from({ length: 499 }, (_, index) => `member${index}`)
		await expectOk(await post('/api/lists', { name: 'full', usernames: many }))
		const again = await expectOk(
			await post('/api/lists/full/members', { usernames: ['member1', '@Member2'] })
		)
		expect(again.message).toBe('Added 0 to full')
		await expectOk(await post('/api/lists/full/members', { usernames: ['newcomer', 'newcomer', 'member3'] }))
		await expectFailure(
			await post('/api/lists/full/members', { usernames: ['one.more'] }),
			400,
			'bad_request'
		)
		await expectOk(await harness.request('DELETE', '/api/lists/full'))
		await expectOk(await harness.request('DELETE', '/api/lists/rivals'))
		await expectFailure(await harness.get('/api/lists/rivals'), 404, 'not_found')
	})

	it('a list is watched member by member, and collected with one job per member', async () => {
		await expectOk(
			await post('/api/lists', { name: 'trio', usernames: ['luna.explorer', 'xss.payload', 'private.pat'] })
		)
		await expectOk(await post('/api/watches', { username: 'luna.explorer' }))
		const watched = await expectOk(await post('/api/lists/trio/watches', { every: '12h', followers: true }))
		expect(watched.data.created.map((watch: { target: string }) => watch.target)).toEqual([
			'xss.payload',
			'private.pat'
		])
		expect(watched.data.created[0]).toMatchObject({ every: '12h', followers: true })
		expect(watched.data.existing.map((watch: { target: string }) => watch.target)).toEqual(['luna.explorer'])

		const jobs = await expectOk(await post('/api/lists/trio/jobs', { kind: 'following', limit: 10 }))
		expect(jobs.data.map((job: { kind: string; target: string }) => `${job.kind} ${job.target}`)).toEqual([
			'following luna.explorer',
			'following xss.payload',
			'following private.pat'
		])
		await expectFailure(await post('/api/lists/trio/jobs', { kind: 'comments' }), 400, 'bad_request')
		expectNoLeaks(harness)
	})

	it('watching a list looks each new member up: one Instagram does not know is not watched', async () => {
		// private.pat is watched by the test before: watched again from scratch here.
		const before = (await expectOk(await harness.get('/api/watches'))).data
		for (const watch of before) await expectOk(await harness.request('DELETE', `/api/watches/${watch.id}`))
		await expectOk(
			await post('/api/lists', { name: 'typos', usernames: ['nobody_zz_404', 'mega.travel', 'private.pat'] })
		)
		const watched = await expectOk(await post('/api/lists/typos/watches', { followers: true }))
		expect(watched.data.created.map((watch: { target: string }) => watch.target)).toEqual([
			'mega.travel',
			'private.pat'
		])
		expect(watched.data.not_found).toEqual(['nobody_zz_404'])
		expect(watched.message).toContain('1 not on Instagram (@nobody_zz_404), not watched')
		// As for one watch: a private account's follower list is readable only while followed.
		expect(watched.message).toContain('@private.pat is private')
		const watches = (await expectOk(await harness.get('/api/watches'))).data
		expect(watches.map((watch: { target: string }) => watch.target)).not.toContain('nobody_zz_404')
		// Asked not to check, the member is watched (its runs will say what they find).
		const unchecked = await expectOk(await post('/api/lists/typos/watches', { check: false }))
		expect(unchecked.data.created.map((watch: { target: string }) => watch.target)).toEqual(['nobody_zz_404'])
		expect(unchecked.data.not_found).toEqual([])
		const after = (await expectOk(await harness.get('/api/watches'))).data
		for (const watch of after) await expectOk(await harness.request('DELETE', `/api/watches/${watch.id}`))
	})

	it('messages count in words: 1 account, 1 new watch, 1 followers job', async () => {
		const solo = await expectOk(await post('/api/lists', { name: 'solo', usernames: ['smkit_demo'] }))
		expect(solo.message).toBe('List solo: 1 account')
		expect((await expectOk(await harness.get('/api/lists/solo'))).message).toBe('List solo: 1 account')
		const watched = await expectOk(await post('/api/lists/solo/watches', {}))
		expect(watched.message).toBe('List solo: 1 new watch, 0 watched already')
		const jobs = await expectOk(await post('/api/lists/solo/jobs', { kind: 'followers', limit: 5 }))
		expect(jobs.message).toBe('List solo: 1 followers job started')
		const empty = await expectOk(await post('/api/lists', { name: 'none', usernames: [] }))
		expect(empty.message).toBe('List none: 0 accounts')
		const duo = await expectOk(
			await post('/api/lists', { name: 'duo', usernames: ['luna.explorer', 'mega.travel'] })
		)
		expect(duo.message).toBe('List duo: 2 accounts')
	})
})
