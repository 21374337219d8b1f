import { describe, expect, it } from 'bun:test'
import { UsageError } from '../../src/cli-error'
import { Dataset, getDataset } from '../../src/simulator/dataset'
import { generateGraph } from '../../src/simulator/dataset-graph'
import { generateMedia, MEDIA_COUNT } from '../../src/simulator/dataset-media'
import {
	generateMegaAccount,
	MEGA_FOLLOWER_COUNT,
	MEGA_POST_COUNT,
	megaFollowerCount
} from '../../src/simulator/dataset-mega'
import { generateUsers, USER_COUNT } from '../../src/simulator/dataset-users'
import { toJsonText } from '../../src/simulator/json'
import { DEFAULT_SEED, DEMO_PRESETS, XSS_PAYLOADS } from '../../src/simulator/presets'
import { decodeShortcode, encodeShortcode } from '../../src/simulator/shortcode'

const dataset = getDataset()

/** A compact fingerprint of everything generated eagerly plus some lazily generated threads. */
function fingerprint(data: Dataset): string {
	return toJsonText({
		users: data.users,
		media: data.media,
		followers: [...data.graph.followers.entries()].slice(0, 50),
		stories: [...data.stories.entries()],
		highlights: [...data.highlights.entries()],
		viewer: data.viewer,
		comments: data.media.slice(0, 20).map((media) => data.commentsOf(media)),
		likers: data.media.slice(0, 20).map((media) => data.likersOf(media))
	})
}

describe('determinism', () => {
	it('builds the same data from the same seed and different data from another', () => {
		expect(fingerprint(new Dataset(7))).toBe(fingerprint(new Dataset(7)))
		expect(fingerprint(new Dataset(7))).not.toBe(fingerprint(new Dataset(8)))
	})

	it('caches one data set per seed', () => {
		expect(getDataset()).toBe(dataset)
		expect(getDataset(7)).not.toBe(dataset)
	})

	it('keeps the contract accounts and media for every seed', () => {
		for (const data of [dataset, new Dataset(99)]) {
			expect(data.userByUsername.get('luna.explorer')?.pk).toBe(DEMO_PRESETS.luna.pk)
			for (const preset of DEMO_PRESETS.media)
				expect(data.mediaByCode.get(preset.code)?.id).toBe(`${preset.pk}_${DEMO_PRESETS.luna.pk}`)
			expect(data.graph.followers.get(DEMO_PRESETS.luna.pk)?.length).toBeGreaterThan(200)
		}
	})
})

describe('size and shape', () => {
	it('has hundreds of users, thousands of posts and private and verified accounts', () => {
		const users = USER_COUNT + 1 + MEGA_FOLLOWER_COUNT
		expect(dataset.users.length).toBe(users)
		expect(dataset.media.length).toBe(MEDIA_COUNT + MEGA_POST_COUNT)
		expect(dataset.users.filter((user) => user.isPrivate).length).toBeGreaterThan(20)
		expect(dataset.users.filter((user) => user.isVerified).length).toBeGreaterThan(3)
		expect(new Set(dataset.users.map((user) => user.username)).size).toBe(users)
		expect(new Set(dataset.users.map((user) => user.pk)).size).toBe(users)
	})

	it('mints 19-digit media pks beyond 2^53 whose codes are the shortcode encoding', () => {
		const pks = new Set<bigint>()
		for (const media of dataset.media) {
			expect(media.pk > 2n ** 53n).toBe(true)
			expect(String(media.pk)).toHaveLength(19)
			expect(media.code).toBe(encodeShortcode(media.pk))
			expect(media.id).toBe(`${media.pk}_${media.ownerPk}`)
			pks.add(media.pk)
		}
		expect(pks.size).toBe(MEDIA_COUNT + MEGA_POST_COUNT)
	})

	it('has mega.travel: public, 5,400 followers, 420 posts, the rest of the data as without it', () => {
		const mega = dataset.userByUsername.get(DEMO_PRESETS.mega.username)
		expect(mega).toMatchObject({ pk: DEMO_PRESETS.mega.pk, isPrivate: false })
		const followers = dataset.graph.followers.get(DEMO_PRESETS.mega.pk) ?? []
		expect(followers.length).toBe(MEGA_FOLLOWER_COUNT)
		expect(new Set(followers).size).toBe(MEGA_FOLLOWER_COUNT)
		expect(dataset.mediaByOwner.get(DEMO_PRESETS.mega.pk)?.length).toBe(MEGA_POST_COUNT)
		for (const pk of followers.slice(0, 100))
			expect(dataset.graph.following.get(pk)).toEqual([DEMO_PRESETS.mega.pk])
		// The accounts and posts generated before it are unchanged by it.
		const base = generateUsers(DEFAULT_SEED)
		expect(toJsonText(dataset.users.slice(0, USER_COUNT))).toBe(toJsonText(base))
		const baseMedia = generateMedia(DEFAULT_SEED, base, generateGraph(DEFAULT_SEED, base))
		const megaPks = new Set(dataset.mediaByOwner.get(DEMO_PRESETS.mega.pk)?.map((media) => media.pk))
		expect(toJsonText(dataset.media.filter((media) => !megaPks.has(media.pk)))).toBe(toJsonText(baseMedia))
	})

	it('puts the preset hashtags in many public captions', () => {
		for (const tag of DEMO_PRESETS.hashtags) expect(dataset.mediaByTag.get(tag)?.length).toBeGreaterThan(100)
		const mentions = dataset.media.filter((media) => /@[a-z0-9._]+/.test(media.caption))
		expect(mentions.length).toBeGreaterThan(300)
	})

	it('carries the payloads of xss.payload', () => {
		const xss = dataset.userByPk.get(DEMO_PRESETS.xss.pk)
		expect(xss?.fullName).toBe(XSS_PAYLOADS.imgOnerror)
		const captions = (dataset.mediaByOwner.get(DEMO_PRESETS.xss.pk) ?? [])
			.map((media) => media.caption)
			.join(' ')
		for (const payload of Object.values(XSS_PAYLOADS))
			expect(`${captions} ${xss?.biography}`).toContain(payload)
	})

	it('keeps private.pat unfollowed and the viewer following luna.explorer', () => {
		const following = dataset.graph.following.get(DEMO_PRESETS.viewer.pk) ?? []
		expect(following).toContain(DEMO_PRESETS.luna.pk)
		expect(following).not.toContain(DEMO_PRESETS.privateAccount.pk)
	})
})

describe('shortcodes and JSON', () => {
	it('matches the upstream test vectors', () => {
		expect(decodeShortcode('DVUVYxwAOOz')).toBe(3842790443716764595n)
		expect(decodeShortcode('ABC123xyz')).toBe(4593314372787n)
		expect(encodeShortcode(4593314372787n)).toBe('BC123xyz')
		expect(decodeShortcode('bad!')).toBeNull()
	})

	it('writes bigint values as bare exact numbers and everything else like JSON.stringify', () => {
		const value = {
			pk: 3842790443716764595n,
			text: 'a"<\u2028',
			list: [1, undefined, null, true],
			skip: undefined,
			nested: { x: 1.5 }
		}
		expect(toJsonText(value)).toBe(
			'{"pk":3842790443716764595,"text":"a\\"<\u2028","list":[1,null,null,true],"nested":{"x":1.5}}'
		)
		const plain = {
			a: [1, 'two', { b: false }],
			c: 'é',
			'k"ey': 'tab\tnul\u0000 lone\ud800 pair😀 \\',
			n: Number.NaN
		}
		expect(toJsonText(plain)).toBe(JSON.stringify(plain))
	})
})

describe('megaFollowerCount', () => {
	it('takes SMKIT_SIM_MEGA_FOLLOWERS within 1-200,000, 5,400 when unset, and refuses any other value', () => {
		expect(megaFollowerCount({})).toBe(MEGA_FOLLOWER_COUNT)
		expect(megaFollowerCount({ SMKIT_SIM_MEGA_FOLLOWERS: ' ' })).toBe(MEGA_FOLLOWER_COUNT)
		expect(megaFollowerCount({ SMKIT_SIM_MEGA_FOLLOWERS: '50000' })).toBe(50_000)
		// As SMKIT_SPEED: a bad value is a usage error (exit 2), never silently the default.
		for (const wrong of ['0', '-5', '1.5', 'lots', '200001', '0x10', '1e4'])
			expect(() => megaFollowerCount({ SMKIT_SIM_MEGA_FOLLOWERS: wrong })).toThrow(
				new UsageError(`SMKIT_SIM_MEGA_FOLLOWERS must be a whole number from 1 to 200000, got '${wrong}'`)
			)
	})

	it('gives mega.travel that many distinct followers', () => {
		const mega = generateMegaAccount(DEFAULT_SEED, dataset.users, dataset.media, 12_000)
		expect(mega.followers).toHaveLength(12_000)
		expect(new Set(mega.followers).size).toBe(12_000)
		expect(new Set(mega.followerAccounts.map((user) => user.username)).size).toBe(12_000)
	})
})
