/**
 * Opening a request in its panel from anywhere on the page (a result's row button): the page's
 * entry listens for the event and runs the request where History's Re-run would.
 */

/** The document event that asks for a GET path to be opened in its panel. */
export const OPEN_REQUEST_EVENT = 'smkit:open-request'

/** Asks the page to open `path` (a GET path under /api/) in its panel and run it. */
export function openRequest(path: string): void {
	document.dispatchEvent(new CustomEvent<string>(OPEN_REQUEST_EVENT, { detail: path }))
}
