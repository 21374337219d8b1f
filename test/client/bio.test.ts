import { describe, expect, it } from 'bun:test'
import { bioEntities, bioLinks, extractHashtags, parseBioText } from '../../src/client/bio'

describe('bio parsing', () => {
	const bio =
		'Travel 📷 with @nat.geo & @café_été #Wanderlust #東京 — mail luna.explorer+pr@gmail.com ' +
		'call +1 (555) 123-4567 or see https://luna.example.com/links and www.luna.travel.'

	it('finds mentions, hashtags, URLs, e-mails and phones with Unicode word characters', () => {
		const parsed = parseBioText(bio)
		expect(parsed.bio_mentions).toEqual(['nat.geo', 'café_été'])
		expect(parsed.bio_hashtags).toEqual(['Wanderlust', '東京'])
		expect(parsed.bio_urls).toEqual(['https://luna.example.com/links', 'www.luna.travel'])
		expect(parsed.bio_emails).toEqual(['luna.explorer+pr@gmail.com'])
		expect(parsed.bio_phones).toEqual(['+1 (555) 123-4567'])
	})

	it('keeps the combining marks of a hashtag (Hindi, Thai, decomposed accents) whole', () => {
		const decomposed = 'cafe\u0301'
		expect(parseBioText(`#भारत #กรุงเทพ #${decomposed} end`).bio_hashtags).toEqual([
			'भारत',
			'กรุงเทพ',
			decomposed
		])
	})

	it('does not take the domain of an e-mail for a mention', () => {
		expect(parseBioText('write to me@example.com').bio_mentions).toEqual([])
	})

	it('keeps e-mails only when the domain has a dot', () => {
		expect(parseBioText('a@localhost b@mail.example.org').bio_emails).toEqual(['b@mail.example.org'])
	})

	it('parses only the first 2,200 characters of a forged, endless biography', () => {
		// A run of one character makes the phone and e-mail patterns backtrack quadratically: a
		// megabyte of it held the event loop for minutes. Instagram's biographies have 150 characters.
		const head = '@early #early '
		const parsed = parseBioText(`${head}${'('.repeat(2200)}${'a'.repeat(20_000)} @late #late`)
		expect(parsed.bio_mentions).toEqual(['early'])
		expect(parsed.bio_hashtags).toEqual(['early'])
		expect(parsed.bio_phones).toEqual([])
	})

	it('returns empty lists for an empty biography', () => {
		expect(parseBioText('')).toEqual({
			bio_mentions: [],
			bio_hashtags: [],
			bio_urls: [],
			bio_emails: [],
			bio_phones: []
		})
	})

	it('reads entities and links', () => {
		expect(
			bioEntities({ entities: [{ user: { username: 'nat.geo' } }, { hashtag: { name: 'travel' } }, {}] })
		).toEqual([
			{ type: 'mention', username: 'nat.geo' },
			{ type: 'hashtag', name: 'travel' }
		])
		expect(
			bioLinks([
				{
					title: 'Shop',
					url: 'https://shop.example',
					lynx_url: 'https://l.instagram.com/x',
					link_type: 'external'
				}
			])
		).toEqual([
			{
				title: 'Shop',
				url: 'https://shop.example',
				lynx_url: 'https://l.instagram.com/x',
				link_type: 'external'
			}
		])
	})

	it('extracts hashtags from comment text', () => {
		expect(extractHashtags('so good #sunset #sunset #coffee_time')).toEqual(['sunset', 'coffee_time'])
	})
})
