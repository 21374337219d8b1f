/**
 * Child process of the interrupted-save test: saves one very large result through `SavedStore`
 * into the directory given as the first argument, so the parent can kill it in the middle of the
 * write. First prints `size <bytes>`, the size the complete file will have.
 */
import { SavedStore } from '../../src/playground/saved-store'

const [directory, megabytes = '150'] = process.argv.slice(2)
if (!directory) throw new Error('usage: bun save-child.ts <directory> [megabytes]')
// Many 1 KiB strings: JSON of about `megabytes` MiB, slow enough to write that a kill lands mid-way.
const chunk = 'x'.repeat(1024)
const result = {
	success: true,
	data: Array.from({ length: Number(megabytes) * 1024 }, (_, index) => ({ index, chunk }))
}
const request = 'GET /api/users/username/luna.explorer'
// The store writes pretty JSON plus a newline; `saved_at` is an ISO time of fixed length.
const content = { name: 'big', saved_at: new Date().toISOString(), request, result }
console.log(`size ${Buffer.byteLength(`${JSON.stringify(content, null, 2)}\n`)}`)
await new SavedStore(directory).save('big', request, result)
console.log('saved')
