/**
 * The demo session the simulated Instagram accepts. These values belong to no real account: they only
 * unlock the simulator, so demo mode and tests can use them freely (never print them in logs anyway).
 */

/** Cookies the simulator accepts: `sessionid`, `csrftoken` (and header `x-csrftoken`), `ds_user_id`. */
export const DEMO_CREDENTIALS = Object.freeze({
	/** Value of the `sessionid` cookie, shaped like Instagram's `<pk>%3A<random>%3A<n>%3A<token>`. */
	sessionId: '1000000001%3AsmkitDemoSession%3A12%3AAYdSimulatedInstagramOnly',
	/** Value of the `csrftoken` cookie and the `x-csrftoken` header on POSTs (32 characters, like Instagram). */
	csrfToken: 'smkitDemoCsrfToken0000000000000A',
	/** The viewer's own pk (`ds_user_id` cookie): the account `smkit_demo`. */
	dsUserId: '1000000001'
})

/** The shape of {@link DEMO_CREDENTIALS}. */
export type DemoCredentials = typeof DEMO_CREDENTIALS
