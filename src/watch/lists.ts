/**
 * Named lists of accounts (migration `lists-1`): "competitors", "clients". A list is a target for
 * compare (its members side by side), for watches (one watch per member) and for jobs (one
 * collection per member). Members keep the order they were added in; a username is in a list once.
 */
import type { Store } from '../store/db'

/** A list as stored and as the API shows it. */
export interface AccountList {
	name: string
	usernames: string[]
	created_at: string
}

/** A list name: letters, digits, space, `.`, `_` and `-`, 1-50 characters. */
export const LIST_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,49}$'

/** Lists in a store. */
export class ListStore {
	constructor(readonly store: Store) {}

	/** Every list, by name. */
	list(): AccountList[] {
		return this.store.db
			.query<{ name: string }, []>('SELECT name FROM account_lists ORDER BY name')
			.all()
			.map((row) => this.get(row.name) as AccountList)
	}

	get(name: string): AccountList | undefined {
		const row = this.store.db
			.query<{ id: number; name: string; created_at: string }, [string]>(
				'SELECT id, name, created_at FROM account_lists WHERE name = ?'
			)
			.get(name)
		if (!row) return undefined
		const usernames = this.store.db
			.query<{ username: string }, [number]>(
				'SELECT username FROM account_list_members WHERE list_id = ? ORDER BY position'
			)
			.all(row.id)
			.map((member) => member.username)
		return { name: row.name, usernames, created_at: row.created_at }
	}

	/** Creates a list (false when the name is taken) with its first members. */
	create(name: string, usernames: readonly string[]): boolean {
		return this.store.transaction(() => {
			const inserted = this.store.db
				.query('INSERT OR IGNORE INTO account_lists (name, created_at) VALUES (?, ?)')
				.run(name, new Date().toISOString())
			if (inserted.changes === 0) return false
			this.add(name, usernames)
			return true
		})
	}

	/** Adds members (already present ones are skipped); returns how many were new. */
	add(name: string, usernames: readonly string[]): number {
		return this.store.transaction(() => {
			const list = this.store.db
				.query<{ id: number }, [string]>('SELECT id FROM account_lists WHERE name = ?')
				.get(name)
			if (!list) return 0
			const insert = this.store.db.query(
				`INSERT OR IGNORE INTO account_list_members (list_id, username, position)
				 VALUES (?1, ?2, (SELECT coalesce(max(position), 0) + 1 FROM account_list_members WHERE list_id = ?1))`
			)
			let added = 0
			for (const username of usernames) added += insert.run(list.id, username).changes
			return added
		})
	}

	/** Removes one member; false when it was not in the list. */
	removeMember(name: string, username: string): boolean {
		return (
			this.store.db
				.query(
					`DELETE FROM account_list_members WHERE username = ?
					 AND list_id = (SELECT id FROM account_lists WHERE name = ?)`
				)
				.run(username, name).changes > 0
		)
	}

	/** Deletes the list (its members too); false when there was none. */
	delete(name: string): boolean {
		return this.store.db.query('DELETE FROM account_lists WHERE name = ?').run(name).changes > 0
	}
}
