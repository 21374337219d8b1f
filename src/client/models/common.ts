/** Models shared by every group: image renditions, pages, raw pass-through objects. */
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Nullable } from './helpers'

/** One rendition of an image or video. */
export const ImageVersion = Type.Object({ width: Type.Integer(), height: Type.Integer(), url: Type.String() })

/** A raw upstream object passed through (account settings, login activity, privacy). */
export const RawObject = Type.Record(Type.String(), Type.Unknown())

/** A page of a list: the items and the cursor of the next page (`null` at the end). */
export const Page = <Item extends TSchema>(item: Item) =>
	Type.Object({ items: Type.Array(item), next_cursor: Nullable(Type.String()) })

export type ImageVersion = Static<typeof ImageVersion>
export type RawObject = Static<typeof RawObject>
/** Plain page data (what JSON serialisation of a `Page` yields). */
export type PageData<Item> = { items: Item[]; next_cursor: string | null }
