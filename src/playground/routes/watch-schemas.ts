/**
 * The shapes of `/api/watches` (routes in watches.ts): a watch, a snapshot, a diff of two snapshots,
 * the path and query parameters, and the body that creates a watch.
 */
import { t } from 'elysia'
import { TopPost } from '../../client/types'
import { Text } from '../../server/text-length'
import { WATCH_KINDS } from '../../watch/types'
import { DecimalInteger } from './params'

const Nullable = <Schema extends Parameters<typeof t.Union>[0][number]>(schema: Schema) =>
	t.Union([schema, t.Null()])

/** A watch as the API shows it. */
export const WatchSchema = t.Object({
	id: t.Integer(),
	kind: t.Union(WATCH_KINDS.map((kind) => t.Literal(kind))),
	target: t.String({ description: 'The username or the hashtag (without #)' }),
	every: t.String({ description: 'Time between runs: 1h to 7d', examples: ['1d'] }),
	every_seconds: t.Integer(),
	followers: t.Boolean({ description: 'Accounts: each snapshot stores the complete follower list' }),
	next_run_at: t.String({ format: 'date-time' }),
	last_run_at: Nullable(t.String({ format: 'date-time' })),
	last_status: Nullable(t.Union([t.Literal('ok'), t.Literal('failed')])),
	last_error: Nullable(t.String()),
	snapshots: t.Integer(),
	demo: Nullable(
		t.Boolean({
			description:
				"True: watches demo mode's simulated Instagram; false: Instagram; null: from an older store and not run since. A playground runs only the watches of the Instagram it serves."
		})
	),
	running: t.Boolean({
		description: 'A run is in progress or waiting for its turn, here or in another process on the same store'
	}),
	queued: t.Boolean({
		description:
			"The run waits for its turn: this playground runs one watch at a time, and another's run goes on first"
	}),
	created_at: t.String({ format: 'date-time' })
})

const Count = Nullable(t.Integer())

/** A snapshot as the API shows it. */
export const SnapshotSchema = t.Object({
	id: t.Integer(),
	watch_id: t.Integer(),
	taken_at: t.String({ format: 'date-time' }),
	followers: Count,
	following: Count,
	posts: Count,
	media_count: t.Union([t.Integer(), t.Null()], { description: 'Hashtags: posts with the tag' }),
	follower_list_size: t.Union([t.Integer(), t.Null()], {
		description: 'Watches with followers: followers in the stored list'
	}),
	top_posts: Nullable(t.Array(TopPost))
})

const CountChange = t.Object({ from: Count, to: Count, change: Count })

export const DiffSchema = t.Object({
	watch_id: t.Integer(),
	from: SnapshotSchema,
	to: SnapshotSchema,
	gained: Nullable(t.Array(t.Unknown(), { description: 'Followers in the newer list only (user records)' })),
	lost: Nullable(t.Array(t.Unknown(), { description: 'Followers in the older list only (user records)' })),
	counts: t.Record(t.String(), CountChange, {
		description: 'followers, following, posts, follower_list_size (accounts) or media_count (hashtags)'
	}),
	top_posts: Nullable(
		t.Object(
			{
				entered: t.Array(TopPost, { description: "In the newer snapshot's top posts only" }),
				left: t.Array(TopPost, { description: "In the older snapshot's top posts only" }),
				stayed: t.Integer({ minimum: 0, description: 'In both' })
			},
			{ description: 'Hashtags: how the top posts changed (matched by pk); null for accounts' }
		)
	)
})

export const WatchParams = t.Object({
	id: DecimalInteger({
		minimum: 1,
		description: 'The watch number (POST /api/watches answers it)',
		examples: [1],
		error: "Invalid path parameter 'id': expected a watch number"
	})
})

export const snapshotId = (name: string) =>
	t.Optional(
		DecimalInteger({
			minimum: 1,
			description: `Snapshot id (GET /api/watches/{id}/snapshots); default: the ${name === 'from' ? 'one before to (the last but one)' : 'last'}`,
			error: `Invalid query parameter '${name}': expected a snapshot id`
		})
	)

export const CreateBody = t.Object({
	username: t.Optional(
		Text({
			maxLength: 64,
			description: 'An account to watch (give this or hashtag)',
			error: "Invalid body field 'username': expected a username",
			examples: ['luna.explorer']
		})
	),
	hashtag: t.Optional(
		Text({
			maxLength: 120,
			description: 'A hashtag to watch (give this or username)',
			error: "Invalid body field 'hashtag': expected a hashtag",
			examples: ['sunset']
		})
	),
	every: t.Optional(
		Text({
			maxLength: 16,
			default: '1d',
			error: "Invalid body field 'every': expected 1h to 7d (e.g. 6h, 1d)",
			description: 'Time between runs: 1h to 7d (e.g. 6h, 1d)'
		})
	),
	followers: t.Optional(
		t.Boolean({
			default: false,
			error: "Invalid body field 'followers': expected true or false",
			description: 'Accounts: store the complete follower list with each snapshot (needed for diffs)'
		})
	),
	check: t.Optional(
		t.Boolean({
			default: true,
			error: "Invalid body field 'check': expected true or false",
			description:
				'Accounts: look the account up on Instagram first; an account Instagram does not know is refused (404)'
		})
	)
})
