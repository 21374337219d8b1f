/**
 * Demo pictures stored by an earlier demo process (a watch's follower list, a job's records, a saved
 * result) name the port of its simulator, gone since: the page loads them from the simulator
 * serving now, by the same path. Other URLs are left as they are.
 */
import { expect, test } from 'bun:test'
import { currentDemoUrl } from '../../assets/playground/lib/images'

const now = 'http://127.0.0.1:40001'

test('a simulated picture on a gone simulator’s port loads from the one serving now', () => {
	expect(currentDemoUrl('http://127.0.0.1:39085/__sim/img/u/1000000002.svg?s=150', now)).toBe(
		`${now}/__sim/img/u/1000000002.svg?s=150`
	)
	expect(currentDemoUrl('http://localhost:5000/__sim/video/m/abc.mp4', `${now}/`)).toBe(
		`${now}/__sim/video/m/abc.mp4`
	)
})

test('anything else is left as it is: other hosts, other paths, no origin known, not a URL', () => {
	const foreign = 'https://scontent.cdninstagram.com/__sim/img/u/1.svg'
	expect(currentDemoUrl(foreign, now)).toBe(foreign)
	expect(currentDemoUrl('http://127.0.0.1:39085/api/users/1', now)).toBe('http://127.0.0.1:39085/api/users/1')
	expect(currentDemoUrl('http://127.0.0.1:39085/__sim/img/u/1.svg', null)).toBe(
		'http://127.0.0.1:39085/__sim/img/u/1.svg'
	)
	expect(currentDemoUrl('data:image/png;base64,AAAA', now)).toBe('data:image/png;base64,AAAA')
	expect(currentDemoUrl('not a url', now)).toBe('not a url')
})
