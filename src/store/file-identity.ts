/**
 * Whether the file a store was opened on is still the one at its path. SQLite keeps writing to the
 * file it opened: when the file, or its folder, is deleted (or another file is moved to its path)
 * while a process has it open, every write still succeeds, into a file nobody can open again, and
 * the work is lost without a word. A stat of the path, compared with the file's device and inode at
 * open, tells (a few microseconds: cheap enough to ask after each stored page).
 *
 *   rememberStoreFile(store)          // openStore does it
 *   if (storeFileChanged(store)) ...   // the records written since the change are lost
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Store } from './db'

/** The file each store was opened on: its absolute path, device and inode. */
const opened = new WeakMap<Store, { path: string; dev: bigint; ino: bigint }>()

/** Notes the file `store` has open now (nothing for an in-memory or temporary store). */
export function rememberStoreFile(store: Store): void {
	if (store.path === ':memory:' || store.path === '') return
	const path = resolve(store.path)
	const stat = statSync(path, { bigint: true, throwIfNoEntry: false })
	if (stat) opened.set(store, { path, dev: stat.dev, ino: stat.ino })
}

/**
 * True when the file at the store's path is no longer the one it opened: deleted (with its folder,
 * or alone) or replaced by another. False for a store whose file was not noted (in memory).
 */
export function storeFileChanged(store: Store): boolean {
	const file = opened.get(store)
	if (!file) return false
	const stat = statSync(file.path, { bigint: true, throwIfNoEntry: false })
	return !stat || stat.dev !== file.dev || stat.ino !== file.ino
}
