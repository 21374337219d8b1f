/**
 * The fixed, named parts of the demo data set (the shared contract): the viewer, luna.explorer with
 * three real shortcode/pk pairs, private.pat, xss.payload, preset hashtags and places. Tests and the
 * UI use {@link DEMO_PRESETS}; the generator builds everything else around these.
 */
import { mediaPkAt } from './shortcode'

/** The seed used when none is given. */
export const DEFAULT_SEED = 20260301

/** The data set's "now" for everything but stories (2026-03-01 12:00 UTC, after the newest real post). */
export const DATA_AS_OF = 1772366400

/** Hostile strings carried by xss.payload's profile, captions, a comment, a highlight and a message. */
export const XSS_PAYLOADS = Object.freeze({
	imgOnerror: '<img src=x onerror="window.__xss=1">',
	script: '<script>window.__xss=1</script>',
	svgOnload: '"><svg onload=window.__xss=1>',
	javascriptUrl: 'javascript:window.__xss=1'
})

/** A fixed post: what the generator must produce for it. */
export interface FixedMediaSpec {
	pk: bigint
	ownerPk: string
	mediaType: 1 | 2 | 8
	caption: string
	placePk: string | null
}

/** The three real shortcode/pk pairs owned by luna.explorer, and xss.payload's hostile posts. */
export const FIXED_MEDIA: readonly FixedMediaSpec[] = Object.freeze([
	{
		pk: 3842790443716764595n,
		ownerPk: '1000000002',
		mediaType: 1,
		caption:
			'Golden hour over the old harbour 🌅 Thanks @smkit_demo for the tip! #sunset #travel #goldenhour',
		placePk: '213385402'
	},
	{
		pk: 3840609605554022182n,
		ownerPk: '1000000002',
		mediaType: 2,
		caption: 'Morning espresso ritual ☕ #coffee #paris #travel',
		placePk: '1016512591'
	},
	{
		pk: 3823732431648645952n,
		ownerPk: '1000000002',
		mediaType: 8,
		caption: 'Three days in Paris ✨ Swipe for the tower at night. #travel #paris #sunset',
		placePk: '6889842'
	},
	{
		pk: mediaPkAt(Date.UTC(2026, 1, 20, 18, 30), 0x2a5f11),
		ownerPk: '1000000004',
		mediaType: 1,
		caption: `${XSS_PAYLOADS.script} Totally normal sunset #sunset`,
		placePk: null
	},
	{
		pk: mediaPkAt(Date.UTC(2026, 1, 12, 9, 15), 0x11c0de),
		ownerPk: '1000000004',
		mediaType: 1,
		caption: `${XSS_PAYLOADS.svgOnload} ${XSS_PAYLOADS.imgOnerror} #coffee`,
		placePk: null
	},
	{
		pk: mediaPkAt(Date.UTC(2026, 0, 30, 21, 0), 0x0badf0),
		ownerPk: '1000000004',
		mediaType: 1,
		caption: `[click me](${XSS_PAYLOADS.javascriptUrl}) <a href="${XSS_PAYLOADS.javascriptUrl}">link</a> #travel`,
		placePk: null
	}
])

/** Named accounts, media and queries with known results in every data set (any seed). */
export const DEMO_PRESETS = Object.freeze({
	/** The logged-in demo account (private, with pending follow requests). */
	viewer: { pk: '1000000001', username: 'smkit_demo' },
	/** Public, verified, business; > 200 followers; bio with email, phone, URL, @mention and #hashtag. */
	luna: { pk: '1000000002', username: 'luna.explorer' },
	/** Private and not followed by the viewer: its feed and followers answer "Not authorized to view user". */
	privateAccount: { pk: '1000000003', username: 'private.pat' },
	/** Hostile HTML/script payloads in full_name, biography, external_url, captions and a comment. */
	xss: { pk: '1000000004', username: 'xss.payload' },
	/** Public, verified, large: 5,400 followers and 420 posts, for collections that take many pages. */
	mega: { pk: '1000000005', username: 'mega.travel' },
	/** luna.explorer's real posts: a photo, a reel and a carousel. */
	media: Object.freeze([
		{
			code: 'DVUVYxwAOOz',
			pk: '3842790443716764595',
			mediaType: 1,
			url: 'https://www.instagram.com/p/DVUVYxwAOOz/'
		},
		{
			code: 'DVMlhZ8ACcm',
			pk: '3840609605554022182',
			mediaType: 2,
			url: 'https://www.instagram.com/reel/DVMlhZ8ACcm/'
		},
		{
			code: 'DUQoGM4juNA',
			pk: '3823732431648645952',
			mediaType: 8,
			url: 'https://www.instagram.com/p/DUQoGM4juNA/'
		}
	]),
	/** xss.payload's posts whose captions carry the payloads. */
	xssMediaPks: Object.freeze(
		FIXED_MEDIA.filter((media) => media.ownerPk === '1000000004').map((media) => String(media.pk))
	),
	/** Hashtags with many posts. */
	hashtags: Object.freeze(['sunset', 'travel', 'coffee']),
	/** A place query with several results. */
	placeQuery: 'paris',
	/** A user search query with several results. */
	userQuery: 'luna',
	/** Things that do not exist: 404 "User not found" / "Media not found or unavailable". */
	missing: { username: 'no.such.user.smkit', pk: '999999999', mediaPk: '1234567890123456789' }
})

/**
 * A data-set time moved forward so the newest activity is recent at `now`: notifications, direct
 * messages and login sessions stay "today" however long after DATA_AS_OF the simulator runs. Times
 * after DATA_AS_OF (written by this instance) are already live and stay as they are.
 */
export function liveTime(time: number, now: number): number {
	return time <= DATA_AS_OF ? time + Math.max(0, now - DATA_AS_OF) : time
}
