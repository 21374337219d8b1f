/**
 * The `media` kind's files: every image and video of a post saved under
 * `<data dir>/downloads/<username>/`, named after the post (`<code>.jpg`, `<code>_2.mp4` for a
 * carousel's second slide). Paths are checked to stay inside that folder; a file that exists is
 * skipped, never overwritten (a file is written to a temporary name, then linked into place, which
 * fails rather than replace); a killed download leaves only a temporary file, removed on the next run.
 * A file is streamed to disk, never held in memory, and one larger than `MAX_DOWNLOAD_BYTES` is
 * refused: a media URL is whatever the answer says, and an endless or huge file would otherwise
 * fill the memory (the playground runs jobs in its own process) or the disk.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, unlinkSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import type { Media } from '../client/types'
import { processAlive } from './process-alive'

/** One file to fetch for a post. */
interface MediaFile {
	name: string
	url: string
}

/** Per-request time limit of a download. */
const DOWNLOAD_TIMEOUT_MS = 60_000
/** The largest media file downloaded: 2 GiB, far above the size of a long video at Instagram's bit rates. */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3
const TEMPORARY = '.part-'

/** The download folder of `username` inside `dataDir`, checked to be a direct child of downloads/. */
export function downloadFolder(dataDir: string, username: string): string {
	if (!/^[a-z0-9._]{1,30}$/.test(username) || /^\.+$/.test(username))
		throw new Error(`not a username for a download folder: "${username}"`)
	const root = resolve(dataDir, 'downloads')
	const folder = resolve(root, username)
	if (!folder.startsWith(root + sep)) throw new Error('download folder outside the downloads directory')
	return folder
}

/**
 * Extensions a downloaded file may take from its URL: image and video formats (the demo serves SVG
 * pictures). Any other (`.html`, `.exe`, `.bat`, `.sh`) would let the answer choose what opening
 * the file does; such a file is named `.mp4` or `.jpg` instead.
 */
const MEDIA_EXTENSIONS = new Set([
	'.jpg',
	'.jpeg',
	'.png',
	'.webp',
	'.gif',
	'.heic',
	'.heif',
	'.avif',
	'.svg',
	'.mp4',
	'.m4v',
	'.mov',
	'.webm'
])

function extensionOf(url: string, video: boolean): string {
	let extension = ''
	try {
		extension = extname(new URL(url).pathname).toLowerCase()
	} catch {
		// Not a URL: the default extension below.
	}
	return MEDIA_EXTENSIONS.has(extension) ? extension : video ? '.mp4' : '.jpg'
}

/** The files of a post: the video when there is one, else the largest image; each carousel slide. */
export function filesOf(media: Media): MediaFile[] {
	const base = /^[A-Za-z0-9_-]{1,64}$/.test(media.code) ? media.code : media.pk.replace(/\D/g, '')
	const slides = media.carousel.length > 0 ? media.carousel : [media]
	const files: MediaFile[] = []
	slides.forEach((slide, index) => {
		const video = slide.video_versions[0]?.url
		const url = video || slide.image_versions[0]?.url || ''
		if (!/^https?:\/\//i.test(url)) return
		const suffix = slides.length > 1 ? `_${index + 1}` : ''
		files.push({ name: `${base}${suffix}${extensionOf(url, Boolean(video))}`, url })
	})
	return files
}

/**
 * Removes temporary files of downloads that a killed run left behind: those of a process that has
 * ended. Another live process's (or another job of this one's) download in progress stays.
 */
export function sweepTemporaryFiles(folder: string): void {
	if (!existsSync(folder)) return
	for (const name of readdirSync(folder)) {
		const writer = Number(/\.part-(\d+)-/.exec(name)?.[1])
		if (!name.includes(TEMPORARY) || writer === process.pid || (writer > 0 && processAlive(writer))) continue
		rmSync(join(folder, name), { force: true })
	}
}

/**
 * Writes the body of `response` to the new file `path`, chunk by chunk; throws `DownloadTooLarge`
 * (and removes the file) once it passes `maxBytes`, or at once when its declared length does.
 */
async function writeBody(response: Response, path: string, name: string, maxBytes: number): Promise<void> {
	const tooLarge = () =>
		new DownloadTooLarge(
			`download of ${name} refused: the file is larger than ${Math.floor(maxBytes / 1024 ** 2).toLocaleString('en-US')} MiB`
		)
	if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
		await response.body?.cancel().catch(() => {})
		throw tooLarge()
	}
	const file = await open(path, 'wx')
	const reader = response.body?.getReader()
	try {
		let size = 0
		for (;;) {
			const chunk = await reader?.read()
			if (!chunk || chunk.done) break
			size += chunk.value.byteLength
			if (size > maxBytes) throw tooLarge()
			await file.write(chunk.value)
		}
	} catch (error) {
		await reader?.cancel().catch(() => {})
		await file.close()
		rmSync(path, { force: true })
		throw error
	}
	await file.close()
}

/** What became of a post's files: those in the folder, and those the server says are gone. */
export interface DownloadedFiles {
	files: string[]
	/** Answered 404 or 410: deleted since the post was listed; the record says so and the job goes on. */
	missing: string[]
}

/**
 * Downloads the files of `media` into `folder` (created when missing). Existing files are skipped.
 * A file the server no longer has (404, 410) is listed as missing; any other failed download
 * throws, the caller retries the page, and the files already in place are skipped then. A file
 * over `maxBytes` throws `DownloadTooLarge`, which a retry would not change.
 */
export async function downloadMediaFiles(
	media: Media,
	folder: string,
	signal: AbortSignal,
	fetcher: typeof fetch = fetch,
	maxBytes = MAX_DOWNLOAD_BYTES
): Promise<DownloadedFiles> {
	mkdirSync(folder, { recursive: true })
	const result: DownloadedFiles = { files: [], missing: [] }
	for (const file of filesOf(media)) {
		const target = join(folder, file.name)
		if (existsSync(target)) {
			result.files.push(file.name)
			continue
		}
		const response = await fetcher(file.url, {
			signal: AbortSignal.any([signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)]),
			redirect: 'follow'
		})
		if (response.status === 404 || response.status === 410) {
			await response.body?.cancel().catch(() => {})
			result.missing.push(file.name)
			continue
		}
		if (!response.ok) throw new DownloadError(`download of ${file.name} failed: HTTP ${response.status}`)
		result.files.push(file.name)
		// Unique: two jobs of this process may fetch the same file at once (the body now streams).
		const temporary = `${target}${TEMPORARY}${process.pid}-${randomBytes(4).toString('hex')}`
		await writeBody(response, temporary, file.name, maxBytes)
		try {
			linkSync(temporary, target)
		} catch (error) {
			// Another run put the file in place meanwhile: keep theirs.
			if ((error as { code?: string }).code !== 'EEXIST') throw error
		} finally {
			unlinkSync(temporary)
		}
	}
	return result
}

/** A post's record with its files: `files` in the folder, and `missing_files` when some are gone. */
export async function withFiles(
	media: Media,
	folder: string,
	signal: AbortSignal,
	fetcher: typeof fetch
): Promise<Media & { files: string[]; missing_files?: string[] }> {
	const { files, missing } = await downloadMediaFiles(media, folder, signal, fetcher)
	return missing.length > 0 ? { ...media, files, missing_files: missing } : { ...media, files }
}

/** A media file could not be fetched (the page is retried like an upstream error). */
export class DownloadError extends Error {
	override name = 'DownloadError'
}

/** A media file is larger than the download limit: trying again would not help. */
export class DownloadTooLarge extends Error {
	override name = 'DownloadTooLarge'
}
