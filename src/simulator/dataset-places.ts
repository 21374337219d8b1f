/** The places (locations) of the demo data set; several are in Paris so `paris` finds results. */
import type { DemoPlace } from './dataset-types'

const place = (
	pk: string,
	name: string,
	address: string,
	city: string,
	lat: number,
	lng: number,
	facebookPlacesId: string
): DemoPlace => ({
	pk,
	name,
	shortName: name.split(',')[0] as string,
	address,
	city,
	lat,
	lng,
	facebookPlacesId
})

/** Every place; posts, stories and place search draw from these. */
export const PLACES: readonly DemoPlace[] = Object.freeze([
	place('6889842', 'Paris, France', '', 'Paris, France', 48.8566, 2.3522, '110774245616525'),
	place(
		'213326726',
		'Tour Eiffel',
		'Champ de Mars, 5 Av. Anatole France',
		'Paris, France',
		48.8584,
		2.2945,
		'115620035122394'
	),
	place('213385409', 'Musée du Louvre', 'Rue de Rivoli', 'Paris, France', 48.8606, 2.3376, '104011599646925'),
	place(
		'1016512591',
		'Café de Flore',
		'172 Bd Saint-Germain',
		'Paris, France',
		48.854,
		2.3326,
		'117946211556262'
	),
	place('213480121', 'Montmartre', '', 'Paris, France', 48.8867, 2.3431, '106238692743557'),
	place(
		'243872921',
		'Jardin du Luxembourg',
		'Rue de Médicis',
		'Paris, France',
		48.8462,
		2.3372,
		'112406678775498'
	),
	place('212988663', 'Lisbon, Portugal', '', 'Lisbon, Portugal', 38.7223, -9.1393, '106265216070449'),
	place(
		'213385402',
		'Miradouro da Senhora do Monte',
		'Largo Monte',
		'Lisbon, Portugal',
		38.7192,
		-9.1327,
		'171547196213476'
	),
	place('212988664', 'Tokyo, Japan', '', 'Tokyo, Japan', 35.6762, 139.6503, '112225948799436'),
	place(
		'228436281',
		'Shibuya Crossing',
		'Shibuya City',
		'Tokyo, Japan',
		35.6595,
		139.7005,
		'161914707168546'
	),
	place('212988665', 'New York, New York', '', 'New York, New York', 40.7128, -74.006, '108424279189115'),
	place('212991521', 'Brooklyn Bridge', '', 'New York, New York', 40.7061, -73.9969, '111814102178564'),
	place('213131048', 'Reykjavík, Iceland', '', 'Reykjavík, Iceland', 64.1466, -21.9426, '107376952627398'),
	place('213085326', 'Kyoto, Japan', '', 'Kyoto, Japan', 35.0116, 135.7681, '114497808567786'),
	place('213073437', 'Barcelona, Spain', '', 'Barcelona, Spain', 41.3874, 2.1686, '110502565641127'),
	place('213144226', 'Istanbul, Turkey', '', 'Istanbul, Turkey', 41.0082, 28.9784, '106012156106461'),
	place(
		'213052641',
		'Cape Town, South Africa',
		'',
		'Cape Town, South Africa',
		-33.9249,
		18.4241,
		'111809875507287'
	),
	place('213162330', 'Mexico City, Mexico', '', 'Mexico City, Mexico', 19.4326, -99.1332, '115264345153578'),
	place('213385977', 'Berlin, Germany', '', 'Berlin, Germany', 52.52, 13.405, '111175118906315'),
	place('214413676', 'Bali, Indonesia', '', 'Bali, Indonesia', -8.3405, 115.092, '112160535466383')
])

/** The cities that accounts say they live in. */
export const CITIES: readonly string[] = Object.freeze([...new Set(PLACES.map((entry) => entry.city))])
